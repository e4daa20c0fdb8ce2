// npukb_sim/kernel/cube_fixpipe.h -- the L0C copy-out: Fixpipe (FixpipeParamsV220) and the DataCopy it
// wraps (DataCopyCO12DstParams + the fixpipe registers SetFixpipePreQuantFlag, SetFixPipeConfig,
// SetFixpipeNz2ndFlag). CO1 (L0C, NZ) -> GM as ND (NZ2ND, CFG_ROW_MAJOR) or NZ (CFG_NZ), or -> L1 (always
// NZ, always converting), with ReLU and the quantisation modes NoQuant, F322F16, F322BF16, DEQF16/VDEQF16
// (int32 -> half), QF322B8_PRE/VQF322B8_PRE (float -> int8) and REQ8/VREQ8 (int32 -> int8). Scalar scales
// come from deqScalar (or the pre-quant register), per-column (tensor) scales from a uint64_t tensor in L1
// (Fixpipe) or the fixpipe buffer (SetFixPipeConfig); a scale is the float in bits 0..31 with the low 13
// mantissa bits ignored (the hardware's 1-8-10 float). Offsets of the 8-bit modes are not modelled. GM
// writes honour SetAtomicAdd. The Fixpipe parameter blocks of other chips (FixpipeParamsArch3510,
// FixpipeParamsM300) are rejected. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/data_copy.h"
#include "npukb_sim/kernel/prim_type.h"

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

// (dst, src) type pairs of the copy-out to GM (all of them) and to L1 (converting ones only).
template <typename T, typename U>
constexpr bool fix_gm_types_ok =
    (std::is_same_v<U, float> && (std::is_same_v<T, float> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
                                  std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>)) ||
    (std::is_same_v<U, std::int32_t> && (std::is_same_v<T, std::int32_t> || std::is_same_v<T, half> ||
                                         std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t>));
template <typename T, typename U>
constexpr bool fix_l1_types_ok = fix_gm_types_ok<T, U> && !std::is_same_v<T, U>;

// One copy-out. scale_words: the per-column scales (nSize words) of the V* modes, already checked.
template <typename T, typename U>
inline void fixpipe(const char* api, std::uint8_t* dst, bool dst_gm, const LocalTensor<T>* dst_tensor,
                    const LocalTensor<U>& src, const std::uint64_t* scale_words, const FixpipeParamsV220& p, bool nz,
                    const char* file, int line) {
  static_assert(std::is_same_v<U, float> || std::is_same_v<U, std::int32_t>,
                "Fixpipe: the source (CO1) must be float or int32_t");
  static_assert(fix_gm_types_ok<T, U>, "Fixpipe/DataCopy from L0C: float converts to float, half, bfloat16_t, int8_t "
                                       "or uint8_t; int32_t to int32_t, half, int8_t or uint8_t");
  require_cube_core(api, file, line);
  if (p.ndNum == 0 || p.nSize == 0 || p.mSize == 0) return;
  if (p.unitFlag == 1 || p.unitFlag > 3) {
    npukb::violation(api, "unitFlag " + npukb::kern::num(p.unitFlag) + " is not 0 (off), 2 or 3", file, line);
  }
  if (!dst_gm && p.quantPre == NoQuant) {
    npukb::violation(api, "L0C -> L1 always converts: NoQuant is not supported on this path (use F322F16, F322BF16, "
                     "DEQF16, QF322B8_PRE, REQ8 or their tensor forms)", file, line);
  }
  if (nz && p.isChannelSplit && !std::is_same_v<T, float>) {
    npukb::violation(api, "isChannelSplit (16 x 8 output fractals) needs a float NZ output", file, line);
  }
  if (!quant_matches<T, U>(p.quantPre)) {
    npukb::violation(api, std::string("quantPre ") + quant_name(p.quantPre) + " does not convert " +
                     (std::is_same_v<U, float> ? "float" : "int32_t") + " (CO1) to the destination type: use "
                     "NoQuant for same types, F322F16/F322BF16 for float -> half/bfloat16, DEQF16/VDEQF16 for "
                     "int32 -> half, QF322B8_PRE/REQ8 (or their V* tensor forms) for 8-bit outputs", file, line);
  }
  if (p.nSize > 4095) npukb::violation(api, "nSize " + npukb::kern::num(p.nSize) + " exceeds 4095", file, line);
  if (!nz && p.mSize > 8192) {
    npukb::violation(api, "mSize " + npukb::kern::num(p.mSize) + " exceeds 8192 with NZ2ND", file, line);
  }
  // Z blocks of an NZ destination: 16 columns; 8 with channel split (float); 32 for 8-bit outputs
  // (channel merge: pairs of 16-column blocks merge, an odd last block of 16 stays as it is).
  const std::uint32_t cw = nz && p.isChannelSplit ? 8 : 16;
  if (nz && p.nSize % cw != 0) {
    npukb::violation(api, "nSize " + npukb::kern::num(p.nSize) + " must be a multiple of " + npukb::kern::num(cw) +
                     " without NZ2ND (CFG_NZ)", file, line);
  }
  if (!nz && p.isChannelSplit) npukb::violation(api, "isChannelSplit cannot be combined with NZ2ND", file, line);
  if (p.isChannelSplit && p.unitFlag != 0) {
    npukb::violation(api, "isChannelSplit cannot be combined with unitFlag", file, line);
  }
  struct ZBlock {
    std::uint32_t col0, width;
  };
  std::vector<ZBlock> zblocks;
  if (nz) {
    const std::uint32_t merged = sizeof(T) == 1 ? 32 : cw;
    for (std::uint32_t c = 0; c < p.nSize; c += merged) zblocks.push_back({c, std::min(merged, p.nSize - c)});
  }
  if (!nz && p.dstStride == 0) npukb::violation(api, "dstStride (ND row length) must not be 0", file, line);
  const std::uint64_t m_rows = (p.mSize + 15) / 16 * 16;
  const std::uint64_t last_col_block = (p.nSize - 1) / 16;
  const std::uint64_t per_nd_elems = last_col_block * p.srcStride * 16ull + m_rows * 16;
  const std::uint64_t src_end = (p.ndNum - 1ull) * p.srcNdStride * 1024ull + per_nd_elems * sizeof(U);
  check_cube_operand(api, "src", src, src_end, {Hardware::L0C}, file, line);
  std::vector<float> col_scale;
  float scalar = quant_scale(p.deqScalar);
  if (per_channel(p.quantPre)) {
    if (scale_words == nullptr) {
      npukb::violation(api, std::string("quantPre ") + quant_name(p.quantPre) + " needs per-channel scales (the "
                       "uint64_t cbufWorkspace tensor in L1, or SetFixPipeConfig with a fixpipe-buffer tensor)", file, line);
    }
    col_scale.resize(p.nSize);
    for (std::uint32_t j = 0; j < p.nSize; ++j) col_scale[j] = quant_scale(scale_words[j]);
  }
  const std::uint64_t dst_extent =
      nz ? (zblocks.size() - 1ull) * p.dstStride * 32ull + p.mSize * zblocks.back().width * sizeof(T) +
               (p.ndNum - 1ull) * p.dstNdStride * sizeof(T)
         : ((p.ndNum - 1ull) * p.dstNdStride + (p.mSize - 1ull) * p.dstStride + p.nSize) * sizeof(T);
  if (dst_tensor != nullptr) check_cube_operand(api, "dst", *dst_tensor, dst_extent, {Hardware::L1}, file, line);
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
          npukb::check_gm(dst + off, p.nSize * sizeof(T), true, api, file, line);
          gm_store(reinterpret_cast<T*>(dst + off), row.data(), p.nSize);
        } else {
          std::memcpy(dst + off, row.data(), p.nSize * sizeof(T));
        }
        dst_end = std::max<std::uint64_t>(dst_end, off + p.nSize * sizeof(T));
      } else {
        for (std::size_t b = 0; b < zblocks.size(); ++b) {
          const std::uint32_t w = zblocks[b].width;
          const std::uint64_t off = static_cast<std::uint64_t>(b) * p.dstStride * 32ull + static_cast<std::uint64_t>(i) * w * sizeof(T) +
                                    static_cast<std::uint64_t>(nd) * p.dstNdStride * sizeof(T);
          if (dst_gm) {
            npukb::check_gm(dst + off, w * sizeof(T), true, api, file, line);
            gm_store(reinterpret_cast<T*>(dst + off), row.data() + zblocks[b].col0, w);
          } else {
            std::memcpy(dst + off, row.data() + zblocks[b].col0, w * sizeof(T));
          }
          dst_end = std::max<std::uint64_t>(dst_end, off + w * sizeof(T));
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

// The per-column scales of a Fixpipe call: the L1 tensor (cbufWorkspace).
template <typename S>
inline const std::uint64_t* l1_scales(const char* api, const LocalTensor<S>& t, const FixpipeParamsV220& p,
                                      const char* file, int line) {
  if (!per_channel(p.quantPre) || p.nSize == 0) return nullptr;
  check_cube_operand(api, "cbufWorkspace (scales)", t, p.nSize * 8ull, {Hardware::L1}, file, line);
  return reinterpret_cast<const std::uint64_t*>(t.ptr());
}

template <typename T, typename U>
inline void l0c_to_l1(const char* api, const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint64_t* scales,
                      const FixpipeParamsV220& p, const char* file, int line) {
  static_assert(fix_l1_types_ok<T, U>, "L0C -> L1 converts float to half, bfloat16_t, int8_t or uint8_t and int32_t to "
                                       "half, int8_t or uint8_t");
  if (dst.loc().hw == Hardware::UB) {
    npukb::violation(api, "there is no CO1 -> UB path on the Ascend 910B: the cube core has no Unified Buffer; "
                     "write the result to GM (e.g. workspace) and read it on the vector core", file, line);
  }
  FixpipeParamsV220 q = p;
  q.isChannelSplit = false;   // no effect on this path
  q.ndNum = 1;
  fixpipe<T, U>(api, reinterpret_cast<std::uint8_t*>(dst.ptr()), false, &dst, src, scales, q, true, file, line);
}

[[noreturn]] inline void other_chip_fixpipe(const char* which, const char* file, int line) {
  npukb::violation("Fixpipe", std::string(which) + " is the Fixpipe parameter block of another chip; Atlas A2/A3 take "
                   "FixpipeParamsV220 only", file, line);
}

// The DataCopy form: DataCopyCO12DstParams plus the registers.
template <typename T, typename U>
inline FixpipeParamsV220 co12_params(const DataCopyCO12DstParams& p, bool to_gm, bool& nz, const std::uint64_t*& scales,
                                     const char* file, int line) {
  const npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  if (p.nSize > 4095) npukb::violation("DataCopy", "nSize " + npukb::kern::num(p.nSize) + " exceeds 4095", file, line);
  if (p.reluPre > 1) npukb::violation("DataCopy", "reluPre must be 0 (off) or 1 (normal ReLU)", file, line);
  if (p.dstStride == 0 && p.nSize != 0 && p.mSize != 0) {
    npukb::violation("DataCopy", "dstStride must not be 0", file, line);
  }
  FixpipeParamsV220 q;
  q.nSize = p.nSize;
  q.mSize = p.mSize;
  q.srcStride = p.srcStride;
  q.dstStride = p.dstStride;
  q.quantPre = p.quantPre;
  q.deqScalar = regs.fix_quant_scalar;
  q.reluEn = p.reluPre == 1;
  q.unitFlag = p.unitFlag;
  q.isChannelSplit = to_gm && p.channelSplit;
  nz = !(to_gm && p.nz2ndEn);
  if (!nz) {
    if (!regs.nz2nd_set) {
      npukb::violation("DataCopy", "nz2ndEn = true needs SetFixpipeNz2ndFlag first (the NZ2ND register is unset)",
                       file, line);
    }
    q.ndNum = regs.nz2nd_num;
    q.srcNdStride = regs.nz2nd_src_stride;
    q.dstNdStride = regs.nz2nd_dst_stride;
  }
  scales = nullptr;
  if (per_channel(p.quantPre) && p.nSize != 0) {
    if (!regs.fix_quant_set) {
      npukb::violation("DataCopy", std::string("quantPre ") + quant_name(p.quantPre) + " reads per-channel scales from "
                       "the fixpipe buffer: call SetFixPipeConfig with the quant tensor first", file, line);
    }
    std::uint8_t* fb = nullptr;
    std::uint32_t fb_bytes = 0;
    hw_region(Hardware::FIXBUF, fb, fb_bytes);
    if (regs.fix_quant_addr + p.nSize * 8ull > fb_bytes) {
      npukb::violation("DataCopy", "FB (fixpipe buffer) overflow: " + npukb::kern::num(p.nSize) + " scales from offset " +
                       npukb::kern::num(regs.fix_quant_addr) + " exceed the " + npukb::kern::num(fb_bytes) + "-byte buffer",
                       file, line);
    }
    scales = reinterpret_cast<const std::uint64_t*>(fb + regs.fix_quant_addr);
  }
  return q;
}

}  // namespace sim

// ---- Fixpipe: CO1 -> GM ---------------------------------------------------------------------------
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Fixpipe<PrimT<T>, PrimT<U>, config>(sim::lite(dst), sim::lite(src), intriParams);
  } else {
    static_assert(config.format != CO2Layout::COLUMN_MAJOR, "Fixpipe: NZ2DN (COLUMN_MAJOR) is not available on Atlas A2/A3");
    sim::fixpipe<T, U>("Fixpipe", reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr()), true, nullptr, src, nullptr,
                       intriParams, config.format == CO2Layout::NZ, file, line);
  }
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = std::uint64_t,
          typename std::enable_if<std::is_same<PrimT<S>, std::uint64_t>::value, bool>::type = true>
inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& intriParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U, S>) {  // tensors of a TensorTrait: the LiteType form
    Fixpipe<PrimT<T>, PrimT<U>, config, PrimT<S>>(sim::lite(dst), sim::lite(src), sim::lite(cbufWorkspace), intriParams);
  } else {
    static_assert(config.format != CO2Layout::COLUMN_MAJOR, "Fixpipe: NZ2DN (COLUMN_MAJOR) is not available on Atlas A2/A3");
    sim::fixpipe<T, U>("Fixpipe", reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr()), true, nullptr, src,
                       sim::l1_scales("Fixpipe", cbufWorkspace, intriParams, file, line), intriParams,
                       config.format == CO2Layout::NZ, file, line);
  }
}

// ---- Fixpipe: CO1 -> L1 (A1/B1/C1), always NZ: the result becomes the next matmul's input ------------
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& intriParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Fixpipe<PrimT<T>, PrimT<U>, config>(sim::lite(dst), sim::lite(src), intriParams);
  } else {
    sim::l0c_to_l1<T, U>("Fixpipe", dst, src, nullptr, intriParams, file, line);
  }
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = std::uint64_t,
          typename std::enable_if<std::is_same<PrimT<S>, std::uint64_t>::value, bool>::type = true>
inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
                    const FixpipeParamsV220& intriParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U, S>) {  // tensors of a TensorTrait: the LiteType form
    Fixpipe<PrimT<T>, PrimT<U>, config, PrimT<S>>(sim::lite(dst), sim::lite(src), sim::lite(cbufWorkspace), intriParams);
  } else {
    sim::l0c_to_l1<T, U>("Fixpipe", dst, src, sim::l1_scales("Fixpipe", cbufWorkspace, intriParams, file, line),
                         intriParams, file, line);
  }
}

// ---- the other chips' parameter blocks (rejected on Atlas A2/A3) -----------------------------------
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, const FixpipeParamsArch3510<config.format>&) { NPUKB_CALLER;
  sim::other_chip_fixpipe("FixpipeParamsArch3510", file, line);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, const LocalTensor<std::uint64_t>&,
                    const FixpipeParamsArch3510<config.format>&) { NPUKB_CALLER;
  sim::other_chip_fixpipe("FixpipeParamsArch3510", file, line);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>&, const LocalTensor<U>&, const FixpipeParamsArch3510<config.format>&) { NPUKB_CALLER;
  sim::other_chip_fixpipe("FixpipeParamsArch3510", file, line);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T>&, const LocalTensor<U>&, const LocalTensor<std::uint64_t>&,
                    const FixpipeParamsArch3510<config.format>&) { NPUKB_CALLER;
  sim::other_chip_fixpipe("FixpipeParamsArch3510", file, line);
}
template <typename T, typename U>
inline void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, const FixpipeParamsM300&) { NPUKB_CALLER;
  sim::other_chip_fixpipe("FixpipeParamsM300", file, line);
}
template <typename T, typename U, typename S>
inline void Fixpipe(const GlobalTensor<T>&, const LocalTensor<U>&, const LocalTensor<S>&, const FixpipeParamsM300&) { NPUKB_CALLER;
  sim::other_chip_fixpipe("FixpipeParamsM300", file, line);
}

// ---- DataCopy CO1 -> GM / L1 with DataCopyCO12DstParams and the fixpipe registers ------------------
template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& intriParams) { NPUKB_CALLER;
  bool nz = true;
  const std::uint64_t* scales = nullptr;
  const FixpipeParamsV220 q = sim::co12_params<T, U>(intriParams, true, nz, scales, file, line);
  if (nz && q.nSize % (q.isChannelSplit ? 8 : 16) != 0) {
    npukb::violation("DataCopy", "nSize " + npukb::kern::num(q.nSize) + " must be a multiple of " +
                     (q.isChannelSplit ? "8 (channelSplit)" : "16"), file, line);
  }
  sim::fixpipe<T, U>("DataCopy", reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr()), true, nullptr, src, scales, q, nz,
                     file, line);
}
// tensors of a TensorTrait: the LiteType form (an overload: the form above compiles as it did)
template <typename T, TPosition tPos, typename TLayout, typename U, TPosition uPos, typename ULayout>
inline void DataCopy(const GlobalTensor<TensorTrait<T, tPos, TLayout>>& dst, const LocalTensor<TensorTrait<U, uPos, ULayout>>& src,
                     const DataCopyCO12DstParams& intriParams) {
  DataCopy(sim::lite(dst), sim::lite(src), intriParams);
}

template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& intriParams) { NPUKB_CALLER;
  bool nz = true;
  const std::uint64_t* scales = nullptr;
  const FixpipeParamsV220 q = sim::co12_params<T, U>(intriParams, false, nz, scales, file, line);
  if (q.nSize % 16 != 0) {
    npukb::violation("DataCopy", "nSize " + npukb::kern::num(q.nSize) + " must be a multiple of 16", file, line);
  }
  sim::l0c_to_l1<T, U>("DataCopy", dst, src, scales, q, file, line);
}
// tensors of a TensorTrait: the LiteType form (an overload: the form above compiles as it did)
template <typename T, TPosition tPos, typename TLayout, typename U, TPosition uPos, typename ULayout>
inline void DataCopy(const LocalTensor<TensorTrait<T, tPos, TLayout>>& dst, const LocalTensor<TensorTrait<U, uPos, ULayout>>& src,
                     const DataCopyCO12DstParams& intriParams) {
  DataCopy(sim::lite(dst), sim::lite(src), intriParams);
}

// ---- fixpipe registers ---------------------------------------------------------------------------
// Per-channel quant parameters (uint64_t, in the fixpipe buffer) of the V* modes of the DataCopy form;
// isUnitFlag clears the L0C unit flags (the simulator keeps none).
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false) { NPUKB_CALLER;
  static_assert(std::is_same_v<T, std::uint64_t>, "SetFixPipeConfig takes uint64_t tensors");
  (void)reluPre;
  (void)isUnitFlag;
  sim::check_cube_operand("SetFixPipeConfig", "quantPre", quantPre, 0, {Hardware::FIXBUF}, file, line, 128);
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  regs.fix_quant_set = true;
  regs.fix_quant_addr = quantPre.loc().addr;
}

template <typename T, bool setRelu = false>
inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) { NPUKB_CALLER;
  static_assert(std::is_same_v<T, std::uint64_t>, "SetFixPipeConfig takes a uint64_t tensor");
  static_assert(!setRelu, "SetFixPipeConfig: only the quant tensor can be set (setRelu must be false)");
  if (isUnitFlag && preData.loc().hw == Hardware::L0C) return;   // unit-flag reset only
  sim::check_cube_operand("SetFixPipeConfig", "preData", preData, 0, {Hardware::FIXBUF}, file, line, 128);
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  regs.fix_quant_set = true;
  regs.fix_quant_addr = preData.loc().addr;
}

// The scalar scale of the DEQF16 / QF322B8_PRE / REQ8 modes of the DataCopy form.
inline void SetFixpipePreQuantFlag(std::uint64_t config) { npukb::kern::cube_regs().fix_quant_scalar = config; }

// NZ2ND of the DataCopy form: ndNum matrices, srcNdStride (1024-byte units) and dstNdStride (elements) apart.
inline void SetFixpipeNz2ndFlag(std::uint16_t ndNum, std::uint16_t srcNdStride, std::uint16_t dstNdStride) { NPUKB_CALLER;
  if (ndNum == 0) npukb::violation("SetFixpipeNz2ndFlag", "ndNum must lie in [1, 65535]", file, line);
  if (ndNum > 1 && (srcNdStride == 0 || srcNdStride > 512)) {
    npukb::violation("SetFixpipeNz2ndFlag", "with ndNum > 1, srcNdStride must lie in [1, 512] (1024-byte units), got " +
                     npukb::kern::num(srcNdStride), file, line);
  }
  if (ndNum > 1 && dstNdStride == 0) {
    npukb::violation("SetFixpipeNz2ndFlag", "with ndNum > 1, dstNdStride must lie in [1, 65535]", file, line);
  }
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  regs.nz2nd_set = true;
  regs.nz2nd_num = ndNum;
  regs.nz2nd_src_stride = srcNdStride;
  regs.nz2nd_dst_stride = dstNdStride;
}

}  // namespace AscendC
