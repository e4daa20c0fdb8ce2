// npukb_sim/kernel/cube_copy.h -- data movement of the cube path:
//  * DataCopy GM (ND) -> L1/UB (NZ) with Nd2NzParams (MTE2), UB -> L1 (TSCM) with Nd2NzParams and
//    DataCopyPad UB -> L1 with DataCopyExtParams + Nd2NzParams (staged through GM, as the real library);
//  * LoadData GM -> L1 and L1/GM -> L0A/L0B with LoadData2DParams (optionally transposing 16 x 16 b16
//    fractals) and LoadDataWithTranspose (LoadData2dTransposeParams; b4/b8/b16/b32 square blocks) (MTE1);
//  * Fill / InitConstValue of L1, L0A, L0B;
//  * DataCopy L1 (C1) -> bias table (C2), converting half/bfloat16 to float, and L1 -> fixpipe buffer.
// Semantics and units follow the public API documentation; see docs/simulator.md. Clean-room part of
// ascendc-sim.
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

template <typename T>
constexpr bool nd2nz_type_ok =
    std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>;

template <typename T>
constexpr bool load2d_type_ok =
    std::is_same_v<T, int4b_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
    std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t> || std::is_same_v<T, half> ||
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, float>;

// The documented ranges of Nd2NzParams (a zero ndNum/nValue/dValue makes the GM copy a NOP).
template <typename T>
inline void check_nd2nz(const char* api, const Nd2NzParams& p, const char* file, int line) {
  auto range = [&](const char* name, long long v, long long lo, long long hi) {
    if (v < lo || v > hi) {
      npukb::violation(api, std::string("Nd2NzParams.") + name + " = " + npukb::kern::num(v) + " is outside [" +
                       npukb::kern::num(lo) + ", " + npukb::kern::num(hi) + "]", file, line);
    }
  };
  range("ndNum", p.ndNum, 0, 4095);
  range("nValue", p.nValue, 0, 16384);
  range("srcDValue", p.srcDValue, 1, 65535);
  range("dstNzMatrixStride", p.dstNzMatrixStride, 0, 16384);
  // a stride no element uses (rows of one 32-byte block; a single row) is not checked
  if (static_cast<std::uint64_t>(p.dValue) * sizeof(T) > 32) range("dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
  if (p.nValue > 1) range("dstNzNStride", p.dstNzNStride, 1, 16384);
}

// ND -> NZ from raw source bytes (ndNum matrices of nValue rows of dValue elements, rows srcDValue apart)
// into dst; each row's last 32-byte block is zero-padded. Returns the destination extent in elements.
template <typename T>
inline std::uint64_t nd2nz_extent(const Nd2NzParams& p) {
  constexpr std::uint64_t c0 = 32 / sizeof(T);
  const std::uint64_t blocks = (p.dValue + c0 - 1) / c0;
  return (p.ndNum - 1ull) * p.dstNzMatrixStride + (p.nValue - 1ull) * p.dstNzNStride * c0 +
         (blocks - 1) * p.dstNzC0Stride * c0 + c0;
}
template <typename T>
inline void nd2nz_rows(T* d, const T* g, const Nd2NzParams& p) {
  constexpr std::uint64_t c0 = 32 / sizeof(T);
  const std::uint64_t blocks = (p.dValue + c0 - 1) / c0;
  for (std::uint32_t i = 0; i < p.ndNum; ++i) {
    for (std::uint32_t j = 0; j < p.nValue; ++j) {
      const T* row = g + static_cast<std::uint64_t>(i) * p.srcNdMatrixStride + static_cast<std::uint64_t>(j) * p.srcDValue;
      T* drow = d + static_cast<std::uint64_t>(i) * p.dstNzMatrixStride + static_cast<std::uint64_t>(j) * p.dstNzNStride * c0;
      for (std::uint64_t k = 0; k < blocks; ++k) {
        const std::uint64_t n = std::min<std::uint64_t>(c0, p.dValue - k * c0);
        T* blk = drow + k * p.dstNzC0Stride * c0;
        std::memcpy(blk, row + k * c0, n * sizeof(T));
        if (n < c0) std::memset(blk + n, 0, (c0 - n) * sizeof(T));
      }
    }
  }
}

inline std::uint64_t get_nibble(const std::uint8_t* base, std::uint64_t i) {
  return i % 2 == 0 ? base[i / 2] & 0xfu : base[i / 2] >> 4;
}
inline void set_nibble(std::uint8_t* base, std::uint64_t i, std::uint64_t v) {
  std::uint8_t& b = base[i / 2];
  b = i % 2 == 0 ? static_cast<std::uint8_t>((b & 0xf0u) | (v & 0xfu)) : static_cast<std::uint8_t>((b & 0x0fu) | ((v & 0xfu) << 4));
}

// Transpose one square block of `rows` x `rows` elements of `esize` bytes (row-major) from src to dst.
inline void transpose_square(std::uint8_t* dst, const std::uint8_t* src, int rows, int esize) {
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < rows; ++c) std::memcpy(dst + (c * rows + r) * esize, src + (r * rows + c) * esize, esize);
  }
}

inline void cost_mte1(const npukb::kern::CubeSpan& src, const npukb::kern::CubeSpan& dst, std::uint64_t bytes) {
  npukb::kern::schedule_cube(npukb::PIPE_ID_MTE1, npukb::kern::mte1_cycles(bytes), &src, 1, &dst, 1);
}

}  // namespace sim

// ---- DataCopy GM -> L1 / UB with ND2NZ conversion ------------------------------------------------
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy<PrimT<T>>(sim::lite(dst), sim::lite(src), intriParams);
  } else {
    static_assert(sim::nd2nz_type_ok<T>, "DataCopy (ND2NZ) supports int8_t, uint8_t, int16_t, uint16_t, int32_t, "
                                         "uint32_t, half, bfloat16_t and float");
    const Nd2NzParams& p = intriParams;
    sim::check_nd2nz<T>("DataCopy", p, file, line);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    const std::uint64_t end = sim::nd2nz_extent<T>(p);
    sim::check_cube_operand("DataCopy", "dst (ND2NZ)", dst, end * sizeof(T), {Hardware::L1, Hardware::UB}, file, line);
    const T* g = src.GetPhyAddr();
    for (std::uint32_t i = 0; i < p.ndNum; ++i) {
      for (std::uint32_t j = 0; j < p.nValue; ++j) {
        const T* row = g + static_cast<std::uint64_t>(i) * p.srcNdMatrixStride + static_cast<std::uint64_t>(j) * p.srcDValue;
        npukb::check_gm(row, p.dValue * sizeof(T), false, "DataCopy", file, line);
      }
    }
    sim::nd2nz_rows(dst.ptr(), g, p);
    const std::uint64_t bytes = static_cast<std::uint64_t>(p.ndNum) * p.nValue * p.dValue * sizeof(T);
    npukb::kern::KState& s = npukb::kern::state();
    s.blk->gm_read_bytes += bytes;
    const double c = npukb::kern::dma_cycles(bytes, static_cast<std::uint32_t>(p.ndNum) * p.nValue, false, sim::gm_512(g));
    if (dst.loc().hw == Hardware::UB) {
      const npukb::kern::Span sp = sim::span_of(dst, 0, end * sizeof(T));
      npukb::kern::schedule(npukb::PIPE_ID_MTE2, c, nullptr, 0, &sp, 1);
    } else {
      const npukb::kern::CubeSpan sp = sim::cube_span(dst, 0, end * sizeof(T));
      npukb::kern::schedule_cube(npukb::PIPE_ID_MTE2, c, nullptr, 0, &sp, 1);
    }
  }
}

// ---- UB -> L1 (TSCM) with ND2NZ, and DataCopyPad UB -> L1 ----------------------------------------------
// The library moves the data UB -> GM (its workspace) -> L1; the simulator copies directly and charges
// both hops to the calling vector core's MTE3 (reading UB).
namespace sim {
inline void cost_ub_to_l1(const npukb::kern::Span& ub, std::uint64_t bytes, std::uint32_t rows) {
  const double c = npukb::kern::dma_cycles(bytes, rows, true, true) + npukb::kern::dma_cycles(bytes, rows, false, true);
  npukb::kern::schedule(npukb::PIPE_ID_MTE3, c, &ub, 1, nullptr, 0);
}
template <typename T>
inline void check_ub_nd2nz(const char* api, const Nd2NzParams& p, const char* file, int line) {
  check_nd2nz<T>(api, p, file, line);
  if (p.ndNum != 1) {
    npukb::violation(api, "UB -> L1 ND2NZ takes ndNum = 1 only (got " + npukb::kern::num(p.ndNum) + ")", file, line);
  }
  if (p.nValue == 0 || p.dValue == 0) {
    npukb::violation(api, "UB -> L1 ND2NZ: nValue and dValue must not be 0", file, line);
  }
}
}  // namespace sim

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const Nd2NzParams& intriParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy<PrimT<T>>(sim::lite(dst), sim::lite(src), intriParams);
  } else {
    static_assert(sim::nd2nz_type_ok<T>, "DataCopy (UB -> L1, ND2NZ) supports int8_t, uint8_t, int16_t, uint16_t, "
                                         "int32_t, uint32_t, half, bfloat16_t and float");
    const Nd2NzParams& p = intriParams;
    sim::check_ub_nd2nz<T>("DataCopy", p, file, line);
    const std::uint64_t src_elems = static_cast<std::uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue;
    sim::check_cube_operand("DataCopy", "src (UB)", src, src_elems * sizeof(T), {Hardware::UB}, file, line);
    const std::uint64_t end = sim::nd2nz_extent<T>(p);
    sim::check_cube_operand("DataCopy", "dst (L1)", dst, end * sizeof(T), {Hardware::L1}, file, line);
    sim::nd2nz_rows(dst.ptr(), src.ptr(), p);
    sim::cost_ub_to_l1(sim::span_of(src, 0, src_elems * sizeof(T)), static_cast<std::uint64_t>(p.nValue) * p.dValue * sizeof(T),
                       p.nValue);
  }
}

// UB -> GM (the ND rows of dataCopyParams: blockLen bytes each, srcStride 32-byte blocks apart in UB,
// dstStride bytes apart in GM) -> L1 (nd2nzParams applied to those GM rows).
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& dataCopyParams,
                        const Nd2NzParams& nd2nzParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopyPad<PrimT<T>>(sim::lite(dst), sim::lite(src), dataCopyParams, nd2nzParams);
  } else {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "DataCopyPad (UB -> L1) supports 8-, 16-, 32- and 64-bit types");
    const DataCopyExtParams& c = dataCopyParams;
    const Nd2NzParams& p = nd2nzParams;
    sim::check_ub_nd2nz<T>("DataCopyPad", p, file, line);
    if (c.blockCount == 0 || c.blockCount > 4095) {
      npukb::violation("DataCopyPad", "blockCount " + npukb::kern::num(c.blockCount) + " is outside [1, 4095]", file, line);
    }
    if (c.blockLen == 0 || c.blockLen > 2097151 || c.blockLen % sizeof(T) != 0) {
      npukb::violation("DataCopyPad", "blockLen " + npukb::kern::num(c.blockLen) + " must lie in [1, 2097151] bytes and be "
                       "a multiple of sizeof(T) = " + npukb::kern::num(static_cast<long long>(sizeof(T))), file, line);
    }
    const std::uint64_t ub_blk = (c.blockLen + 31ull) / 32 * 32;
    const std::uint64_t src_end = (ub_blk + 32ull * c.srcStride) * (c.blockCount - 1) + c.blockLen;
    sim::check_cube_operand("DataCopyPad", "src (UB)", src, src_end, {Hardware::UB}, file, line);
    // the staging rows as they lie in GM
    const std::uint64_t gm_step = c.blockLen + static_cast<std::uint64_t>(c.dstStride);
    std::vector<std::uint8_t> staged(gm_step * c.blockCount, 0);
    const std::uint8_t* u = reinterpret_cast<const std::uint8_t*>(src.ptr());
    for (std::uint32_t i = 0; i < c.blockCount; ++i) {
      std::memcpy(staged.data() + i * gm_step, u + i * (ub_blk + 32ull * c.srcStride), c.blockLen);
    }
    const std::uint64_t need = ((p.nValue - 1ull) * p.srcDValue + p.dValue) * sizeof(T);
    if (need > staged.size()) {
      npukb::violation("DataCopyPad", "nd2nzParams read " + npukb::kern::num(static_cast<long long>(need)) + " bytes of the "
                       "staged rows but dataCopyParams wrote only " + npukb::kern::num(static_cast<long long>(staged.size())),
                       file, line);
    }
    if (p.dValue * sizeof(T) > c.blockLen) {
      npukb::warning("DataCopyPad", "nd2nzParams.dValue covers more than one staged block (blockLen " +
                     npukb::kern::num(c.blockLen) + " bytes): rows also take the gap bytes", file, line);
    }
    const std::uint64_t end = sim::nd2nz_extent<T>(p);
    sim::check_cube_operand("DataCopyPad", "dst (L1)", dst, end * sizeof(T), {Hardware::L1}, file, line);
    sim::nd2nz_rows(dst.ptr(), reinterpret_cast<const T*>(staged.data()), p);
    sim::cost_ub_to_l1(sim::span_of(src, 0, src_end), static_cast<std::uint64_t>(c.blockLen) * c.blockCount, c.blockCount);
  }
}

// ---- LoadData (Load2D) ------------------------------------------------------------------------------
namespace sim {
template <typename T>
inline void load2d(const LocalTensor<T>& dst, const std::uint8_t* src, std::uint64_t src_bytes, std::uint32_t src_addr,
                   bool src_is_l1, const LoadData2DParams& p, const char* file, int line,
                   const LocalTensor<T>* src_tensor) {
  static_assert(load2d_type_ok<T>, "LoadData (2D) supports int4b_t, int8_t, uint8_t, int16_t, uint16_t, half, "
                                   "bfloat16_t, int32_t, uint32_t and float");
  require_cube_core("LoadData", file, line);
  if (p.repeatTimes == 0) return;
  const bool to_l1 = dst.loc().hw == Hardware::L1;
  if (p.ifTranspose && (!src_is_l1 || sizeof(T) != 2 || std::is_same_v<T, int4b_t>)) {
    npukb::violation("LoadData", src_is_l1 ? "ifTranspose = true needs a 16-bit type (half/bfloat16_t/int16_t/uint16_t); "
                                             "use LoadDataWithTranspose for 4-, 8- and 32-bit fractals"
                                           : "ifTranspose = true works on L1 -> L0A/L0B only (not from GM)", file, line);
  }
  if (p.addrMode != 0 && src_is_l1) {
    npukb::violation("LoadData", "addrMode = 1 (decreasing fractal index) is supported from GM only; keep 0 for "
                     "L1 -> L0A/L0B", file, line);
  }
  if (std::is_same_v<T, int4b_t> && !src_is_l1) {
    npukb::violation("LoadData", "int4b_t moves on L1 -> L0A/L0B only", file, line);
  }
  if (to_l1 && src_is_l1) npukb::violation("LoadData", "L1 -> L1 is not a LoadData path", file, line);
  const std::uint64_t last_dst = (p.repeatTimes - 1ull) * (p.dstGap + 1ull);
  check_cube_operand("LoadData", "dst", dst, (last_dst + 1) * 512,
                     src_is_l1 ? std::initializer_list<Hardware>{Hardware::L0A, Hardware::L0B}
                               : std::initializer_list<Hardware>{Hardware::L0A, Hardware::L0B, Hardware::L1},
                     file, line);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  std::uint64_t lo = ~0ull, hi = 0;
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    const long long idx = p.addrMode == 0 ? static_cast<long long>(p.startIndex) + static_cast<long long>(r) * p.srcStride
                                          : static_cast<long long>(p.startIndex) - static_cast<long long>(r) * p.srcStride;
    if (idx < 0) {
      npukb::violation("LoadData", "fractal index " + npukb::kern::num(idx) + " of repeat " + npukb::kern::num(r) +
                       " is negative (addrMode 1 counts down from startIndex)", file, line);
    }
    const std::uint64_t off = static_cast<std::uint64_t>(idx) * 512;
    if (off + 512 > src_bytes) {
      npukb::violation("LoadData", std::string(src_is_l1 ? "L1" : "GM") + " overflow: src fractal " + npukb::kern::num(idx) +
                       " (bytes " + npukb::kern::num(static_cast<long long>(off)) + ".." +
                       npukb::kern::num(static_cast<long long>(off + 512)) + ") lies outside the source tensor of " +
                       npukb::kern::num(static_cast<long long>(src_bytes)) + " bytes", file, line);
    }
    if (!src_is_l1) npukb::check_gm(src + off, 512, false, "LoadData", file, line);
    std::uint8_t* out = d + r * (p.dstGap + 1ull) * 512;
    if (p.ifTranspose) transpose_square(out, src + off, 16, 2);
    else std::memcpy(out, src + off, 512);
    lo = std::min(lo, off);
    hi = std::max(hi, off + 512);
  }
  const std::uint64_t bytes = 512ull * p.repeatTimes;
  const npukb::kern::CubeSpan ds = cube_span(dst, 0, (last_dst + 1) * 512);
  if (src_is_l1 && src_tensor != nullptr) {
    cost_mte1(cube_span(*src_tensor, lo, hi), ds, bytes);
  } else {   // GM -> L1 / L0A / L0B on MTE2
    npukb::kern::state().blk->gm_read_bytes += bytes;
    npukb::kern::schedule_cube(npukb::PIPE_ID_MTE2, npukb::kern::dma_cycles(bytes, p.repeatTimes, false, gm_512(src)),
                               nullptr, 0, &ds, 1);
  }
  (void)src_addr;
}
}  // namespace sim

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    LoadData(sim::lite(dst), sim::lite(src), p);
  } else {
    sim::check_cube_operand("LoadData", "src", src, 0, {Hardware::L1}, file, line);
    sim::load2d(dst, reinterpret_cast<const std::uint8_t*>(src.ptr()), static_cast<std::uint64_t>(src.GetSize()) * sizeof(T),
                src.loc().addr, true, p, file, line, &src);
  }
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    LoadData(sim::lite(dst), sim::lite(src), p);
  } else {
    sim::load2d<T>(dst, reinterpret_cast<const std::uint8_t*>(src.GetPhyAddr()), ~0ull >> 1, 0, false, p, file, line,
                   nullptr);
  }
}

// ---- LoadDataWithTranspose -------------------------------------------------------------------------
// b16: each repeat transposes one 16 x 16 fractal. b8: two consecutive 16 x 32 fractals form a 32 x 32
// block (stacked), transposed and split back into two 16 x 32 fractals (rows 0-15, 16-31). b4: four
// consecutive 16 x 64 fractals form a 64 x 64 block, split into rows 0-15, ..., 48-63. b32: two
// consecutive 16 x 8 fractals form a 16 x 16 block (side by side), transposed and split into columns
// 0-7 and 8-15. startIndex and srcStride count such blocks; dstGap (fractals) separates the first
// fractals of consecutive repeats, dstFracGap (fractals) the fractals of one repeat.
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const LoadData2dTransposeParams& loadDataParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    LoadDataWithTranspose<PrimT<T>>(sim::lite(dst), sim::lite(src), loadDataParams);
  } else {
    static_assert(std::is_same_v<T, int4b_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
                      std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, std::int32_t> ||
                      std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>,
                  "LoadDataWithTranspose supports int4b_t (to L0B), int8_t, uint8_t, half, bfloat16_t, int32_t, uint32_t "
                  "and float");
    const LoadData2dTransposeParams& p = loadDataParams;
    sim::require_cube_core("LoadDataWithTranspose", file, line);
    if (p.repeatTimes == 0) return;
    constexpr bool b4 = std::is_same_v<T, int4b_t>;
    if (b4 && dst.loc().hw == Hardware::L0A) {
      npukb::violation("LoadDataWithTranspose", "int4b_t can be transposed into L0B only", file, line);
    }
    constexpr std::uint32_t fracs = b4 ? 4 : (sizeof(T) == 2 ? 1 : 2);   // fractals per square block
    const std::uint64_t dst_step = 1ull + p.dstGap;
    const std::uint64_t last = (p.repeatTimes - 1ull) * dst_step + (fracs - 1ull) * (1ull + p.dstFracGap);
    sim::check_cube_operand("LoadDataWithTranspose", "dst", dst, (last + 1) * 512, {Hardware::L0A, Hardware::L0B}, file, line);
    sim::check_cube_operand("LoadDataWithTranspose", "src", src, 0, {Hardware::L1}, file, line);
    const std::uint64_t src_bytes = static_cast<std::uint64_t>(src.GetSize()) * sizeof(T);
    const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
    std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
    std::uint8_t square[2048], out[2048];
    std::uint64_t lo = ~0ull, hi = 0;
    for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
      const long long blk = p.addrMode == 0 ? static_cast<long long>(p.startIndex) + static_cast<long long>(r) * p.srcStride
                                            : static_cast<long long>(p.startIndex) - static_cast<long long>(r) * p.srcStride;
      const std::uint64_t off = static_cast<std::uint64_t>(blk) * fracs * 512;
      if (blk < 0 || off + fracs * 512 > src_bytes) {
        npukb::violation("LoadDataWithTranspose", "L1 overflow: source block " + npukb::kern::num(blk) +
                         " lies outside the source tensor of " + npukb::kern::num(static_cast<long long>(src_bytes)) +
                         " bytes", file, line);
      }
      std::uint8_t* out0 = d + r * dst_step * 512;
      auto frac_out = [&](std::uint32_t f) { return out0 + f * (1ull + p.dstFracGap) * 512; };
      if constexpr (b4) {
        std::memset(out, 0, sizeof out);                       // 64 x 64 nibbles, rows of 32 bytes
        for (std::uint32_t row = 0; row < 64; ++row) {
          for (std::uint32_t col = 0; col < 64; ++col) {
            const std::uint64_t v = sim::get_nibble(s + off, row * 64 + col);
            sim::set_nibble(out, col * 64 + row, v);
          }
        }
        for (std::uint32_t f = 0; f < 4; ++f) std::memcpy(frac_out(f), out + f * 512, 512);
      } else if (sizeof(T) == 2) {
        sim::transpose_square(out0, s + off, 16, 2);
      } else if (sizeof(T) == 1) {
        sim::transpose_square(out, s + off, 32, 1);           // the two fractals are rows 0-15 and 16-31
        std::memcpy(frac_out(0), out, 512);
        std::memcpy(frac_out(1), out + 512, 512);
      } else {
        for (int row = 0; row < 16; ++row) {                   // side by side: [16][8] | [16][8] -> [16][16]
          std::memcpy(square + row * 64, s + off + row * 32, 32);
          std::memcpy(square + row * 64 + 32, s + off + 512 + row * 32, 32);
        }
        sim::transpose_square(out, square, 16, 4);
        for (int row = 0; row < 16; ++row) {
          std::memcpy(frac_out(0) + row * 32, out + row * 64, 32);
          std::memcpy(frac_out(1) + row * 32, out + row * 64 + 32, 32);
        }
      }
      lo = std::min(lo, off);
      hi = std::max(hi, off + fracs * 512);
    }
    sim::cost_mte1(sim::cube_span(src, lo, hi), sim::cube_span(dst, 0, (last + 1) * 512), 512ull * fracs * p.repeatTimes);
  }
}

// ---- Fill / InitConstValue: fill L1 / L0A / L0B with a constant ----------------------------------------
// repeatTimes repeats of blockNum blocks (32 bytes in L1, 512 in L0A/L0B), dstGap blocks between repeats;
// L1 on MTE2, L0A/L0B on MTE1.
namespace sim {
template <typename T, typename U>
inline void fill_cube(const char* api, const LocalTensor<T>& dst, const InitConstValueParams<U>& p, const char* file,
                      int line) {
  require_cube_core(api, file, line);
  if (p.repeatTimes > 32767 || p.blockNum > 32767 || p.dstGap > 32767) {
    npukb::violation(api, "repeatTimes, blockNum and dstGap must lie in [0, 32767]", file, line);
  }
  if (p.repeatTimes == 0 || p.blockNum == 0) return;
  const Hardware hw = dst.loc().hw;
  const std::uint64_t unit = hw == Hardware::L1 ? 32 : 512;
  const std::uint64_t step = (static_cast<std::uint64_t>(p.blockNum) + p.dstGap) * unit;
  const std::uint64_t end = step * (p.repeatTimes - 1ull) + p.blockNum * unit;
  check_cube_operand(api, "dst", dst, end, {Hardware::L1, Hardware::L0A, Hardware::L0B}, file, line);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    std::uint8_t* blk = d + r * step;
    for (std::uint64_t e = 0; e < p.blockNum * unit / sizeof(U); ++e) std::memcpy(blk + e * sizeof(U), &p.initValue, sizeof(U));
  }
  const npukb::kern::CubeSpan out = cube_span(dst, 0, end);
  npukb::kern::schedule_cube(hw == Hardware::L1 ? npukb::PIPE_ID_MTE2 : npukb::PIPE_ID_MTE1,
                             npukb::kern::mte1_cycles(p.blockNum * unit * p.repeatTimes), nullptr, 0, &out, 1);
}
}  // namespace sim

template <typename T, typename U = PrimT<T>, typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Fill(sim::lite(dst), initConstValueParams);
  } else {
    static_assert(std::is_same_v<U, std::int16_t> || std::is_same_v<U, std::uint16_t> || std::is_same_v<U, half> ||
                      std::is_same_v<U, bfloat16_t> || std::is_same_v<U, std::int32_t> || std::is_same_v<U, std::uint32_t> ||
                      std::is_same_v<U, float>,
                  "Fill supports int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t and float");
    sim::fill_cube("Fill", dst, initConstValueParams, file, line);
  }
}

// ---- InitConstValue: fill L1 / L0A / L0B with a constant ---------------------------------------------
template <typename T>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<T>& p) { NPUKB_CALLER;
  sim::fill_cube("InitConstValue", dst, p, file, line);
}

// ---- DataCopy L1 (C1/A1/B1) -> bias table (C2), half/bfloat16 converted to float ----------------------
// blockLen counts 64-byte units of the source; strides count 32-byte (source) and 64-byte (table) units.
namespace sim {
template <typename T, typename U>
void copy_l1_to_bt(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p, const char* file,
                          int line) {
  static_assert((std::is_same_v<T, float> && (std::is_same_v<U, float> || std::is_same_v<U, half> ||
                                              std::is_same_v<U, bfloat16_t>)) ||
                    (std::is_same_v<T, std::int32_t> && std::is_same_v<U, std::int32_t>),
                "DataCopy L1 -> C2 (bias table) supports float <- float/half/bfloat16_t and int32_t <- int32_t");
  require_cube_core("DataCopy", file, line);
  check_copy_params("DataCopy", p, file, line);
  const std::uint64_t src_blk = 64ull * p.blockLen;                       // bytes read per block
  const std::uint64_t elems = src_blk / sizeof(U);
  const std::uint64_t dst_blk = elems * sizeof(T);
  const std::uint64_t sstep = src_blk + 32ull * p.srcStride, dstep = dst_blk + 64ull * p.dstStride;
  check_cube_operand("DataCopy", "src", src, sstep * (p.blockCount - 1) + src_blk, {Hardware::L1}, file, line);
  check_cube_operand("DataCopy", "dst", dst, dstep * (p.blockCount - 1) + dst_blk, {Hardware::BIAS}, file, line);
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint32_t b = 0; b < p.blockCount; ++b) {
    for (std::uint64_t e = 0; e < elems; ++e) {
      U v;
      std::memcpy(&v, s + b * sstep + e * sizeof(U), sizeof(U));
      const T o = static_cast<T>(static_cast<float>(v));
      std::memcpy(d + b * dstep + e * sizeof(T), &o, sizeof(T));
    }
  }
  cost_mte1(cube_span(src, 0, sstep * (p.blockCount - 1) + src_blk), cube_span(dst, 0, dstep * (p.blockCount - 1) + dst_blk),
            src_blk * p.blockCount);
}
}  // namespace sim

// ---- DataCopy L1 -> fixpipe buffer (C2PIPE2GM): quant parameters of Fixpipe / SetFixPipeConfig ------
// blockLen in 128-byte units; srcGap (32-byte units) and dstGap (128-byte units) are head-to-head
// distances (0 repeats the first block). Runs on the FIX pipe.
namespace sim {
template <typename T>
void copy_l1_to_fb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, const char* file,
                   int line) {
  require_cube_core("DataCopy", file, line);
  check_block_count("DataCopy", p.blockCount, file, line);
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const std::uint64_t blk = 128ull * p.blockLen, sstep = 32ull * p.srcStride, dstep = 128ull * p.dstStride;
  const std::uint64_t send = sstep * (p.blockCount - 1) + blk, dend = dstep * (p.blockCount - 1) + blk;
  check_cube_operand("DataCopy", "src", src, send, {Hardware::L1}, file, line);
  check_cube_operand("DataCopy", "dst", dst, dend, {Hardware::FIXBUF}, file, line, 128);
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint32_t b = 0; b < p.blockCount; ++b) std::memmove(d + b * dstep, s + b * sstep, blk);
  const npukb::kern::CubeSpan in = cube_span(src, 0, send), out = cube_span(dst, 0, dend);
  npukb::kern::schedule_cube(npukb::PIPE_ID_FIX, npukb::kern::mte1_cycles(blk * p.blockCount), &in, 1, &out, 1);
}
}  // namespace sim

// Different element types: only L1 -> bias table converts (same-type copies go through data_copy.h,
// which forwards a bias-table destination here).
template <typename T, typename U, typename = std::enable_if_t<!std::is_same_v<T, U>>>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), p);
  } else {
    sim::copy_l1_to_bt(dst, src, p, file, line);
  }
}

}  // namespace AscendC
