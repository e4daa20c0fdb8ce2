// npukb_sim/kernel/cube_copy.h -- data movement of the cube path:
//  * DataCopy GM (ND) -> L1/UB (NZ) with Nd2NzParams (MTE2);
//  * LoadData L1/GM -> L0A/L0B with LoadData2DParams (optionally transposing 16 x 16 b16 fractals) and
//    LoadDataWithTranspose (LoadData2dTransposeParams; b8/b16/b32 square blocks) (MTE1);
//  * DataCopy L1 (C1) -> bias table (C2), converting half/bfloat16 to float (MTE1).
// Semantics and units follow the public API documentation; see docs/simulator.md. Clean-room part of
// ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/data_copy.h"

namespace AscendC {
namespace sim {

template <typename T>
constexpr bool nd2nz_type_ok =
    std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>;

template <typename T>
constexpr bool load2d_type_ok =
    std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> || std::is_same_v<T, float>;

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
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) { NPUKB_CALLER;
  static_assert(sim::nd2nz_type_ok<T>, "DataCopy (ND2NZ) supports int8_t, uint8_t, int16_t, uint16_t, int32_t, "
                                       "uint32_t, half, bfloat16_t and float");
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
  constexpr std::uint64_t c0 = 32 / sizeof(T);
  const std::uint64_t blocks = (p.dValue + c0 - 1) / c0;
  const std::uint64_t end = (p.ndNum - 1ull) * p.dstNzMatrixStride + (p.nValue - 1ull) * p.dstNzNStride * c0 +
                            (blocks - 1) * p.dstNzC0Stride * c0 + c0;
  sim::check_cube_operand("DataCopy", "dst (ND2NZ)", dst, end * sizeof(T), {Hardware::L1, Hardware::UB}, file, line);
  const T* g = src.GetPhyAddr();
  T* d = dst.ptr();
  for (std::uint32_t i = 0; i < p.ndNum; ++i) {
    for (std::uint32_t j = 0; j < p.nValue; ++j) {
      const T* row = g + static_cast<std::uint64_t>(i) * p.srcNdMatrixStride + static_cast<std::uint64_t>(j) * p.srcDValue;
      npukb::check_gm(row, p.dValue * sizeof(T), false, "DataCopy", file, line);
      T* drow = d + static_cast<std::uint64_t>(i) * p.dstNzMatrixStride + static_cast<std::uint64_t>(j) * p.dstNzNStride * c0;
      for (std::uint64_t k = 0; k < blocks; ++k) {
        const std::uint64_t n = std::min<std::uint64_t>(c0, p.dValue - k * c0);
        T* blk = drow + k * p.dstNzC0Stride * c0;
        std::memcpy(blk, row + k * c0, n * sizeof(T));
        if (n < c0) std::memset(blk + n, 0, (c0 - n) * sizeof(T));   // the row's last block is zero-padded
      }
    }
  }
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

// ---- LoadData (Load2D) ------------------------------------------------------------------------------
namespace sim {
template <typename T>
inline void load2d(const LocalTensor<T>& dst, const std::uint8_t* src, std::uint64_t src_bytes, std::uint32_t src_addr,
                   bool src_is_l1, const LoadData2DParams& p, const char* file, int line,
                   const LocalTensor<T>* src_tensor) {
  static_assert(load2d_type_ok<T>, "LoadData (2D) supports int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, "
                                   "int32_t, uint32_t and float");
  require_cube_core("LoadData", file, line);
  if (p.repeatTimes == 0) return;
  if (p.ifTranspose && sizeof(T) != 2) {
    npukb::violation("LoadData", "ifTranspose = true needs a 16-bit type (half/bfloat16_t/int16_t); use "
                     "LoadDataWithTranspose for 8- and 32-bit fractals", file, line);
  }
  const std::uint64_t last_dst = (p.repeatTimes - 1ull) * (p.dstGap + 1ull);
  check_cube_operand("LoadData", "dst", dst, (last_dst + 1) * 512, {Hardware::L0A, Hardware::L0B}, file, line);
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
  } else {
    npukb::kern::state().blk->gm_read_bytes += bytes;
    npukb::kern::schedule_cube(npukb::PIPE_ID_MTE2, npukb::kern::dma_cycles(bytes, p.repeatTimes, false, gm_512(src)),
                               nullptr, 0, &ds, 1);
  }
  (void)src_addr;
}
}  // namespace sim

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) { NPUKB_CALLER;
  sim::check_cube_operand("LoadData", "src", src, 0, {Hardware::L1}, file, line);
  sim::load2d(dst, reinterpret_cast<const std::uint8_t*>(src.ptr()), static_cast<std::uint64_t>(src.GetSize()) * sizeof(T),
              src.loc().addr, true, p, file, line, &src);
}

template <typename T>
inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const LoadData2DParams& p) { NPUKB_CALLER;
  sim::load2d<T>(dst, reinterpret_cast<const std::uint8_t*>(src.GetPhyAddr()), ~0ull >> 1, 0, false, p, file, line,
                 nullptr);
}

// ---- LoadDataWithTranspose -------------------------------------------------------------------------
// b16: each repeat transposes one 16 x 16 fractal. b8: two consecutive 16 x 32 fractals form a 32 x 32
// block (stacked), transposed and split back into two 16 x 32 fractals (rows 0-15, 16-31). b32: two
// consecutive 16 x 8 fractals form a 16 x 16 block (side by side), transposed and split into columns
// 0-7 and 8-15. startIndex and srcStride count such blocks; dstGap (fractals) separates the first
// fractals of consecutive repeats, dstFracGap (fractals) the two fractals of one repeat.
template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p) { NPUKB_CALLER;
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "LoadDataWithTranspose supports 8-, 16- and 32-bit types");
  sim::require_cube_core("LoadDataWithTranspose", file, line);
  if (p.repeatTimes == 0) return;
  constexpr std::uint32_t fracs = sizeof(T) == 2 ? 1 : 2;   // fractals per square block
  const std::uint64_t dst_step = 1ull + p.dstGap;
  const std::uint64_t last = (p.repeatTimes - 1ull) * dst_step + (fracs == 2 ? 1ull + p.dstFracGap : 0ull);
  sim::check_cube_operand("LoadDataWithTranspose", "dst", dst, (last + 1) * 512, {Hardware::L0A, Hardware::L0B}, file, line);
  sim::check_cube_operand("LoadDataWithTranspose", "src", src, 0, {Hardware::L1}, file, line);
  const std::uint64_t src_bytes = static_cast<std::uint64_t>(src.GetSize()) * sizeof(T);
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  std::uint8_t square[1024], out[1024];
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
    if (sizeof(T) == 2) {
      sim::transpose_square(out0, s + off, 16, 2);
    } else if (sizeof(T) == 1) {
      sim::transpose_square(out, s + off, 32, 1);           // the two fractals are rows 0-15 and 16-31
      std::memcpy(out0, out, 512);
      std::memcpy(out0 + (1ull + p.dstFracGap) * 512, out + 512, 512);
    } else {
      for (int row = 0; row < 16; ++row) {                   // side by side: [16][8] | [16][8] -> [16][16]
        std::memcpy(square + row * 64, s + off + row * 32, 32);
        std::memcpy(square + row * 64 + 32, s + off + 512 + row * 32, 32);
      }
      sim::transpose_square(out, square, 16, 4);
      std::uint8_t* out1 = out0 + (1ull + p.dstFracGap) * 512;
      for (int row = 0; row < 16; ++row) {
        std::memcpy(out0 + row * 32, out + row * 64, 32);
        std::memcpy(out1 + row * 32, out + row * 64 + 32, 32);
      }
    }
    lo = std::min(lo, off);
    hi = std::max(hi, off + fracs * 512);
  }
  sim::cost_mte1(sim::cube_span(src, lo, hi), sim::cube_span(dst, 0, (last + 1) * 512), 512ull * fracs * p.repeatTimes);
}

// ---- InitConstValue: fill L1 / L0A / L0B with a constant ---------------------------------------------
template <typename T>
inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<T>& p) { NPUKB_CALLER;
  sim::require_cube_core("InitConstValue", file, line);
  if (p.repeatTimes == 0 || p.blockNum == 0) return;
  const Hardware hw = dst.loc().hw;
  const std::uint64_t unit = hw == Hardware::L1 ? 32 : 512;
  const std::uint64_t step = (static_cast<std::uint64_t>(p.blockNum) + p.dstGap) * unit;
  const std::uint64_t end = step * (p.repeatTimes - 1ull) + p.blockNum * unit;
  sim::check_cube_operand("InitConstValue", "dst", dst, end, {Hardware::L1, Hardware::L0A, Hardware::L0B}, file, line);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint32_t r = 0; r < p.repeatTimes; ++r) {
    T* blk = reinterpret_cast<T*>(d + r * step);
    for (std::uint64_t e = 0; e < p.blockNum * unit / sizeof(T); ++e) std::memcpy(blk + e, &p.initValue, sizeof(T));
  }
  const npukb::kern::CubeSpan out = sim::cube_span(dst, 0, end);
  npukb::kern::schedule_cube(npukb::PIPE_ID_MTE1, npukb::kern::mte1_cycles(p.blockNum * unit * p.repeatTimes), nullptr, 0,
                             &out, 1);
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
  if (!check_copy_params("DataCopy", p, file, line)) return;  // blockCount or blockLen 0: a no-op
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

// Different element types: only L1 -> bias table converts (same-type copies go through data_copy.h,
// which forwards a bias-table destination here).
template <typename T, typename U, typename = std::enable_if_t<!std::is_same_v<T, U>>>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p) { NPUKB_CALLER;
  sim::copy_l1_to_bt(dst, src, p, file, line);
}

}  // namespace AscendC
