// npukb_sim/kernel/cube_fixpipe.h -- Fixpipe (FixpipeParamsV220): CO1 (L0C, NZ) -> GM or L1, as ND
// (CFG_ROW_MAJOR) or NZ (CFG_NZ), with ReLU and the quantisation modes NoQuant, F322F16, F322BF16,
// DEQF16/VDEQF16 (int32 -> half), QF322B8_PRE/VQF322B8_PRE (float -> int8) and REQ8/VREQ8 (int32 -> int8).
// Scalar scales come from deqScalar, per-column (tensor) scales from a uint64_t tensor in L1; a scale
// is the float in bits 0..31 with the low 13 mantissa bits ignored (the hardware's 1-8-10 float).
// Offsets of the 8-bit modes are not modelled. GM writes honour SetAtomicAdd. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/data_copy.h"

namespace AscendC {
namespace sim {

inline const char* quant_name(QuantMode_t q) {
  switch (q) {
    case NoQuant: return "NoQuant";
    case F322F16: return "F322F16";
    case F322BF16: return "F322BF16";
    case DEQF16: return "DEQF16";
    case VDEQF16: return "VDEQF16";
    case QF322B8_PRE: return "QF322B8_PRE";
    case VQF322B8_PRE: return "VQF322B8_PRE";
    case REQ8: return "REQ8";
    case VREQ8: return "VREQ8";
    default: return "an unsupported mode";
  }
}

inline float quant_scale(std::uint64_t word) {
  const std::uint32_t bits = static_cast<std::uint32_t>(word) & 0xFFFFE000u;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

template <typename T, typename U>
inline bool quant_matches(QuantMode_t q) {
  constexpr bool i8 = std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>;
  switch (q) {
    case NoQuant: return std::is_same_v<T, U>;
    case F322F16: return std::is_same_v<U, float> && std::is_same_v<T, half>;
    case F322BF16: return std::is_same_v<U, float> && std::is_same_v<T, bfloat16_t>;
    case DEQF16: case VDEQF16: return std::is_same_v<U, std::int32_t> && std::is_same_v<T, half>;
    case QF322B8_PRE: case VQF322B8_PRE: return std::is_same_v<U, float> && i8;
    case REQ8: case VREQ8: return std::is_same_v<U, std::int32_t> && i8;
    default: return false;
  }
}

inline bool per_channel(QuantMode_t q) { return q == VDEQF16 || q == VQF322B8_PRE || q == VREQ8; }

template <typename T>
inline T to_int8(float v) {
  constexpr float lo = std::is_same_v<T, std::int8_t> ? -128.0f : 0.0f;
  constexpr float hi = std::is_same_v<T, std::int8_t> ? 127.0f : 255.0f;
  if (__builtin_isnan(v)) return 0;
  const float r = __builtin_nearbyintf(v);
  return static_cast<T>(r < lo ? lo : (r > hi ? hi : r));
}

template <typename T, typename U>
inline T fix_convert(U raw, QuantMode_t q, bool relu, float scale) {
  if (relu && raw < static_cast<U>(0)) raw = static_cast<U>(0);
  if constexpr (std::is_same_v<T, U>) {
    return raw;
  } else if constexpr (std::is_same_v<T, half>) {
    if (q == F322F16) return static_cast<half>(static_cast<float>(raw));
    return static_cast<half>(static_cast<float>(raw) * scale);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return bfloat16_t(static_cast<float>(raw));
  } else if constexpr (std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>) {
    return to_int8<T>(static_cast<float>(raw) * scale);
  } else {
    return static_cast<T>(raw);
  }
}

template <typename T, typename U>
inline void fixpipe(std::uint8_t* dst, bool dst_gm, const LocalTensor<T>* dst_tensor, const LocalTensor<U>& src,
                    const LocalTensor<std::uint64_t>* scales, const FixpipeParamsV220& p, bool nz, const char* file,
                    int line) {
  static_assert(std::is_same_v<U, float> || std::is_same_v<U, std::int32_t>,
                "Fixpipe: the source (CO1) must be float or int32_t");
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, half> ||
                    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>,
                "Fixpipe: the destination must be float, int32_t, half, bfloat16_t, int8_t or uint8_t");
  require_cube_core("Fixpipe", file, line);
  if (p.ndNum == 0 || p.nSize == 0 || p.mSize == 0) return;
  if (!quant_matches<T, U>(p.quantPre)) {
    npukb::violation("Fixpipe", std::string("quantPre ") + quant_name(p.quantPre) + " does not convert " +
                     (std::is_same_v<U, float> ? "float" : "int32_t") + " (CO1) to the destination type: use "
                     "NoQuant for same types, F322F16/F322BF16 for float -> half/bfloat16, DEQF16/VDEQF16 for "
                     "int32 -> half, QF322B8_PRE/REQ8 (or their V* tensor forms) for 8-bit outputs", file, line);
  }
  if (p.nSize > 4095) npukb::violation("Fixpipe", "nSize " + npukb::kern::num(p.nSize) + " exceeds 4095", file, line);
  if (!nz && p.mSize > 8192) {
    npukb::violation("Fixpipe", "mSize " + npukb::kern::num(p.mSize) + " exceeds 8192 with NZ2ND", file, line);
  }
  const std::uint32_t cw = nz && p.isChannelSplit ? 8 : 16;   // columns per Z block of an NZ destination
  if (nz && p.nSize % cw != 0) {
    npukb::violation("Fixpipe", "nSize " + npukb::kern::num(p.nSize) + " must be a multiple of " + npukb::kern::num(cw) +
                     " without NZ2ND (CFG_NZ)", file, line);
  }
  if (!nz && p.isChannelSplit) npukb::violation("Fixpipe", "isChannelSplit cannot be combined with NZ2ND", file, line);
  if (!nz && p.dstStride == 0) npukb::violation("Fixpipe", "dstStride (ND row length) must not be 0", file, line);
  const std::uint64_t m_rows = (p.mSize + 15) / 16 * 16;
  const std::uint64_t last_col_block = (p.nSize - 1) / 16;
  const std::uint64_t per_nd_elems = last_col_block * p.srcStride * 16ull + m_rows * 16;
  const std::uint64_t src_end = (p.ndNum - 1ull) * p.srcNdStride * 1024ull + per_nd_elems * sizeof(U);
  check_cube_operand("Fixpipe", "src", src, src_end, {Hardware::L0C}, file, line);
  std::vector<float> col_scale;
  float scalar = quant_scale(p.deqScalar);
  if (per_channel(p.quantPre)) {
    if (scales == nullptr) {
      npukb::violation("Fixpipe", std::string("quantPre ") + quant_name(p.quantPre) + " needs per-channel scales: pass "
                       "the uint64_t scale tensor (cbufWorkspace, in L1)", file, line);
    }
    check_cube_operand("Fixpipe", "cbufWorkspace (scales)", *scales, p.nSize * 8ull, {Hardware::L1}, file, line);
    col_scale.resize(p.nSize);
    for (std::uint32_t j = 0; j < p.nSize; ++j) col_scale[j] = quant_scale(scales->ptr()[j]);
  }
  const std::uint64_t dst_extent =
      nz ? (p.nSize / cw - 1ull) * p.dstStride * 32ull + p.mSize * cw * sizeof(T) + (p.ndNum - 1ull) * p.dstNdStride * sizeof(T)
         : ((p.ndNum - 1ull) * p.dstNdStride + (p.mSize - 1ull) * p.dstStride + p.nSize) * sizeof(T);
  if (dst_tensor != nullptr) check_cube_operand("Fixpipe", "dst", *dst_tensor, dst_extent, {Hardware::L1}, file, line);
  const U* s = src.ptr();
  std::vector<T> row(p.nSize);
  std::uint64_t written = 0, dst_end = 0;
  for (std::uint32_t nd = 0; nd < p.ndNum; ++nd) {
    const U* sb = reinterpret_cast<const U*>(reinterpret_cast<const std::uint8_t*>(s) + nd * p.srcNdStride * 1024ull);
    for (std::uint32_t i = 0; i < p.mSize; ++i) {
      for (std::uint32_t j = 0; j < p.nSize; ++j) {
        const U raw = sb[(j / 16) * p.srcStride * 16ull + i * 16ull + j % 16];
        row[j] = fix_convert<T, U>(raw, p.quantPre, p.reluEn, col_scale.empty() ? scalar : col_scale[j]);
      }
      if (!nz) {
        const std::uint64_t off = (static_cast<std::uint64_t>(nd) * p.dstNdStride + static_cast<std::uint64_t>(i) * p.dstStride) * sizeof(T);
        if (dst_gm) {
          npukb::check_gm(dst + off, p.nSize * sizeof(T), true, "Fixpipe", file, line);
          gm_store(reinterpret_cast<T*>(dst + off), row.data(), p.nSize);
        } else {
          std::memcpy(dst + off, row.data(), p.nSize * sizeof(T));
        }
        dst_end = std::max<std::uint64_t>(dst_end, off + p.nSize * sizeof(T));
      } else {
        for (std::uint32_t b = 0; b < p.nSize / cw; ++b) {
          const std::uint64_t off = static_cast<std::uint64_t>(b) * p.dstStride * 32ull + static_cast<std::uint64_t>(i) * cw * sizeof(T) +
                                    static_cast<std::uint64_t>(nd) * p.dstNdStride * sizeof(T);
          if (dst_gm) {
            npukb::check_gm(dst + off, cw * sizeof(T), true, "Fixpipe", file, line);
            gm_store(reinterpret_cast<T*>(dst + off), row.data() + b * cw, cw);
          } else {
            std::memcpy(dst + off, row.data() + b * cw, cw * sizeof(T));
          }
          dst_end = std::max<std::uint64_t>(dst_end, off + cw * sizeof(T));
        }
      }
      written += p.nSize * sizeof(T);
    }
  }
  (void)dst_end;
  const npukb::kern::CubeSpan in = cube_span(src, 0, src_end);
  if (dst_gm) {
    npukb::kern::state().blk->gm_write_bytes += written;
    const double c = npukb::kern::dma_cycles(written, static_cast<std::uint32_t>(p.ndNum) * p.mSize, true, gm_512(dst));
    npukb::kern::schedule_cube(npukb::PIPE_ID_FIX, c, &in, 1, nullptr, 0);
  } else {
    const npukb::kern::CubeSpan out = cube_span(*dst_tensor, 0, dst_end);
    npukb::kern::schedule_cube(npukb::PIPE_ID_FIX, npukb::kern::kFixStartCycles + written / npukb::kern::kFixBytesPerCycle,
                               &in, 1, &out, 1);
  }
}

}  // namespace sim

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) { NPUKB_CALLER;
  sim::fixpipe<T, U>(reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr()), true, nullptr, src, nullptr, p,
                     config.format == CO2Layout::NZ, file, line);
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = std::uint64_t,
          typename std::enable_if<std::is_same<S, std::uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& p) { NPUKB_CALLER;
  sim::fixpipe<T, U>(reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr()), true, nullptr, src, &cbufWorkspace, p,
                     config.format == CO2Layout::NZ, file, line);
}

// CO1 -> L1 (A1/B1): the result becomes the next matmul's input. CO1 -> UB does not exist on the
// Ascend 910B (the cube core has no Unified Buffer).
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p) { NPUKB_CALLER;
  if (dst.loc().hw == Hardware::UB) {
    npukb::violation("Fixpipe", "there is no CO1 -> UB path on the Ascend 910B: the cube core has no Unified Buffer; "
                     "write the result to GM (e.g. workspace) and read it on the vector core", file, line);
  }
  sim::fixpipe<T, U>(reinterpret_cast<std::uint8_t*>(dst.ptr()), false, &dst, src, nullptr, p,
                     config.format == CO2Layout::NZ, file, line);
}

}  // namespace AscendC
