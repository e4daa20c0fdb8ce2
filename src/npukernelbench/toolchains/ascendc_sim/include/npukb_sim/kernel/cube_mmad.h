// npukb_sim/kernel/cube_mmad.h -- Mmad and MmadWithSparse: C (CO1/L0C, NZ) = [C or bias or 0] + A (A2/L0A,
// zZ) x B (B2/L0B, nZ), and the Mmad configuration registers SetMMColumnMajor / SetMMRowMajor,
// SetHF32Mode, SetHF32TransMode. Operand checks here; the arithmetic is npukb::cube_mmad
// (runtime/cube_engine.cpp). Semantics follow the public API documentation: m == 1 is GEMV (A read as
// k contiguous elements), kDirectionAlign aligns float K to 16 in L0A/L0B, HF32 rounds float inputs.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/cube_engine.h"
#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/prim_type.h"

namespace AscendC {

// HF32 mode of Mmad on float inputs (SetHF32Mode) and its rounding (SetHF32TransMode).
enum class HF32Mode : std::uint8_t { DISABLE = 0, ENABLE = 1 };
enum class HF32TransMode : std::uint8_t { NEAREST_EVEN = 0, NEAREST_ZERO = 1 };

namespace sim {

// (dst, fm, filter) combinations of the Mmad data-type table (Atlas A2/A3).
template <typename T, typename U, typename S>
constexpr bool mmad_types_ok =
    (std::is_same_v<T, float> && std::is_same_v<U, half> && std::is_same_v<S, half>) ||
    (std::is_same_v<T, float> && std::is_same_v<U, bfloat16_t> && std::is_same_v<S, bfloat16_t>) ||
    (std::is_same_v<T, float> && std::is_same_v<U, float> && std::is_same_v<S, float>) ||
    (std::is_same_v<T, std::int32_t> && std::is_same_v<U, std::int8_t> && std::is_same_v<S, std::int8_t>) ||
    (std::is_same_v<T, std::int32_t> && std::is_same_v<U, int4b_t> && std::is_same_v<S, int4b_t>);

// ... and with a bias (the bias-table type of each combination; int4b_t takes no bias).
template <typename T, typename U, typename V>
constexpr bool mmad_bias_ok = (std::is_same_v<T, float> && std::is_same_v<V, float>) ||
                              (std::is_same_v<T, std::int32_t> && std::is_same_v<U, std::int8_t> &&
                               std::is_same_v<V, std::int32_t>);

template <typename U>
constexpr npukb::CubeInput cube_input() {
  if constexpr (std::is_same_v<U, half>) return npukb::CubeInput::F16;
  else if constexpr (std::is_same_v<U, bfloat16_t>) return npukb::CubeInput::BF16;
  else if constexpr (std::is_same_v<U, float>) return npukb::CubeInput::F32;
  else if constexpr (std::is_same_v<U, std::int8_t>) return npukb::CubeInput::S8;
  else if constexpr (std::is_same_v<U, int4b_t>) return npukb::CubeInput::S4;
  else return npukb::CubeInput::U8;
}

// Elements of a 32-byte fractal row of the input type (64 for int4b_t).
template <typename U>
constexpr std::uint32_t cube_k0() {
  if constexpr (std::is_same_v<U, int4b_t>) return 64;
  else return 32 / sizeof(U);
}

inline void check_mmad_params(const char* api, const MmadParams& p, const char* file, int line) {
  if (p.m > 4095 || p.n > 4095 || p.k > 4095) {
    npukb::violation(api, "m, n, k must be at most 4095 (got m=" + npukb::kern::num(p.m) + ", n=" +
                     npukb::kern::num(p.n) + ", k=" + npukb::kern::num(p.k) + ")", file, line);
  }
  if (p.unitFlag == 1 || p.unitFlag > 3) {
    npukb::violation(api, "unitFlag " + npukb::kern::num(p.unitFlag) + " is not 0 (off), 2 or 3", file, line);
  }
}

template <typename T, typename U, typename S, typename V, bool kBias>
inline void mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>* bias, const MmadParams& p, const char* file, int line) {
  static_assert(mmad_types_ok<T, U, S>,
                "Mmad supports (dst, fm, filter) = (float, half, half), (float, bfloat16_t, bfloat16_t), "
                "(float, float, float), (int32_t, int8_t, int8_t) and (int32_t, int4b_t, int4b_t)");
  require_cube_core("Mmad", file, line);
  check_mmad_params("Mmad", p, file, line);
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  constexpr std::uint32_t k0 = cube_k0<U>();
  const bool gemv = p.m == 1;
  const std::uint64_t m1 = (p.m + 15) / 16, n1 = (p.n + 15) / 16;
  // float: K aligned to 8 (one fractal) or, with kDirectionAlign, to 16 (two fractals)
  const std::uint64_t k1 = std::is_same_v<U, float> && p.kDirectionAlign ? (p.k + 15) / 16 * 2 : (p.k + k0 - 1) / k0;
  const std::uint64_t a_bytes = gemv ? (static_cast<std::uint64_t>(p.k) * 32 / k0 + 0) : m1 * k1 * 512;
  const std::uint64_t b_bytes = k1 * n1 * 512, c_bytes = m1 * n1 * 256 * sizeof(T);
  check_cube_operand("Mmad", "fm (left matrix A)", fm, a_bytes, {Hardware::L0A}, file, line);
  check_cube_operand("Mmad", "filter (right matrix B)", filter, b_bytes, {Hardware::L0B}, file, line);
  check_cube_operand("Mmad", "dst (C)", dst, c_bytes, {Hardware::L0C}, file, line, 1024);
  const npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  npukb::MmadJob job;
  job.input = cube_input<U>();
  job.a = fm.ptr();
  job.b = filter.ptr();
  job.c = dst.ptr();
  job.m = p.m;
  job.n = p.n;
  job.k = p.k;
  job.k_frac = static_cast<int>(k1);
  job.gemv = gemv;
  job.hf32 = regs.hf32 ? (regs.hf32_to_zero ? 2 : 1) : 0;
  const bool accumulate = p.isBias || (!p.cmatrixInitVal && !p.cmatrixSource);
  job.init = accumulate ? 0 : 1;
  npukb::kern::CubeSpan reads[4] = {cube_span(fm, 0, a_bytes), cube_span(filter, 0, b_bytes)};
  int nreads = 2;
  if constexpr (kBias) {
    static_assert(mmad_bias_ok<T, U, V>, "Mmad with bias supports bias float (half/bfloat16_t/float inputs) and "
                                         "int32_t (int8_t inputs)");
    check_cube_operand("Mmad", "bias", *bias, n1 * 16 * sizeof(T), {Hardware::BIAS}, file, line);
    job.bias = bias->ptr();
    job.init = 2;
    reads[nreads++] = cube_span(*bias, 0, n1 * 16 * sizeof(T));
  } else if (!p.cmatrixInitVal && p.cmatrixSource && !p.isBias) {
    (void)bias;
    npukb::violation("Mmad", "cmatrixSource = true (C starts from the bias table) needs the Mmad overload with a bias "
                     "tensor in C2", file, line);
  }
  if (accumulate) reads[nreads++] = cube_span(dst, 0, c_bytes);
  npukb::cube_mmad(job);
  const npukb::kern::CubeSpan out = cube_span(dst, 0, c_bytes);
  const double cycles = npukb::kern::mmad_cycles(p.m, p.n, p.k, k0) / (job.hf32 != 0 ? 2.0 : 1.0);
  npukb::kern::schedule_cube(npukb::PIPE_ID_M, cycles, reads, nreads, &out, 1);
}

}  // namespace sim

template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& mmadParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U, S>) {  // tensors of a TensorTrait: the LiteType form
    Mmad(sim::lite(dst), sim::lite(fm), sim::lite(filter), mmadParams);
  } else {
    sim::mmad<T, U, S, T, false>(dst, fm, filter, nullptr, mmadParams, file, line);
  }
}

// With a bias in the bias table (C2): C = bias (broadcast over rows) + A x B.
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>& bias, const MmadParams& mmadParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U, S, V>) {  // tensors of a TensorTrait: the LiteType form
    Mmad(sim::lite(dst), sim::lite(fm), sim::lite(filter), sim::lite(bias), mmadParams);
  } else {
    sim::mmad<T, U, S, V, true>(dst, fm, filter, &bias, mmadParams, file, line);
  }
}

// 4:2 structured sparse Mmad: B (L0B) holds the densified k/2 rows loaded by LoadDataWithSparse, whose
// index buffer selects, per B element, the A column of its group of four.
template <typename T = std::int32_t, typename U = std::int8_t,
          typename std::enable_if<std::is_same<PrimT<T>, std::int32_t>::value, bool>::type = true,
          typename std::enable_if<std::is_same<PrimT<U>, std::int8_t>::value, bool>::type = true>
inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                           const MmadParams& mmadParams) { NPUKB_CALLER;
  sim::require_cube_core("MmadWithSparse", file, line);
  sim::check_mmad_params("MmadWithSparse", mmadParams, file, line);
  if (mmadParams.kDirectionAlign) {
    npukb::violation("MmadWithSparse", "kDirectionAlign must stay false in the sparse mode", file, line);
  }
  const MmadParams& p = mmadParams;
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  if (p.m == 1) npukb::violation("MmadWithSparse", "m = 1 (GEMV) is not supported by the sparse mode", file, line);
  const npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  const std::uint64_t m1 = (p.m + 15) / 16, n1 = (p.n + 15) / 16, ka1 = (p.k + 31) / 32;
  const std::uint64_t kd = (p.k + 1) / 2, kb1 = (kd + 31) / 32;
  const std::uint64_t first_frac = filter.loc().addr / 512;
  for (std::uint64_t f = first_frac; f < first_frac + kb1 * n1; ++f) {
    if (regs.sparse_index == nullptr || f >= 128 || ((regs.sparse_loaded[f / 64] >> (f % 64)) & 1u) == 0) {
      npukb::violation("MmadWithSparse", "no index was loaded for the B fractal at L0B byte " +
                       npukb::kern::num(static_cast<long long>(f * 512)) + " (B: k/2 = " +
                       npukb::kern::num(static_cast<long long>(kd)) + " dense rows, n = " + npukb::kern::num(p.n) +
                       "): load B with LoadDataWithSparse", file, line);
    }
  }
  const std::uint64_t a_bytes = m1 * ka1 * 512, b_bytes = kb1 * n1 * 512, c_bytes = m1 * n1 * 256 * 4;
  sim::check_cube_operand("MmadWithSparse", "fm (left matrix A)", fm, a_bytes, {Hardware::L0A}, file, line);
  sim::check_cube_operand("MmadWithSparse", "filter (right matrix B)", filter, b_bytes, {Hardware::L0B}, file, line);
  sim::check_cube_operand("MmadWithSparse", "dst (C)", dst, c_bytes, {Hardware::L0C}, file, line, 1024);
  npukb::MmadJob job;
  job.input = npukb::CubeInput::S8;
  job.a = fm.ptr();
  job.b = filter.ptr();
  job.c = dst.ptr();
  job.m = p.m;
  job.n = p.n;
  job.k = p.k;
  job.sparse_index = regs.sparse_index + first_frac * 128;
  const bool accumulate = p.isBias || (!p.cmatrixInitVal && !p.cmatrixSource);
  job.init = accumulate ? 0 : 1;
  if (!p.cmatrixInitVal && p.cmatrixSource && !p.isBias) {
    npukb::violation("MmadWithSparse", "cmatrixSource = true needs a bias in C2, which MmadWithSparse does not take",
                     file, line);
  }
  npukb::kern::CubeSpan reads[3] = {sim::cube_span(fm, 0, a_bytes), sim::cube_span(filter, 0, b_bytes)};
  int nreads = 2;
  if (accumulate) reads[nreads++] = sim::cube_span(dst, 0, c_bytes);
  npukb::cube_mmad(job);
  const npukb::kern::CubeSpan out = sim::cube_span(dst, 0, c_bytes);
  npukb::kern::schedule_cube(npukb::PIPE_ID_M, npukb::kern::mmad_cycles(p.m, p.n, static_cast<std::uint32_t>(kd), 32),
                             reads, nreads, &out, 1);
}
// tensors of a TensorTrait: the LiteType form (an overload: the form above compiles as it did)
template <typename T, TPosition tPos, typename TLayout, typename U, TPosition uPos, typename ULayout>
inline void MmadWithSparse(const LocalTensor<TensorTrait<T, tPos, TLayout>>& dst,
                           const LocalTensor<TensorTrait<U, uPos, ULayout>>& fm,
                           const LocalTensor<TensorTrait<U, uPos, ULayout>>& filter, const MmadParams& mmadParams) {
  MmadWithSparse(sim::lite(dst), sim::lite(fm), sim::lite(filter), mmadParams);
}

// The order in which the cube walks the result fractals: M first (column major, the default) or N
// first (row major). It changes when each fractal of C is ready (unitFlag), not the values.
inline void SetMMColumnMajor() { npukb::kern::cube_regs().mm_row_major = false; }
inline void SetMMRowMajor() { npukb::kern::cube_regs().mm_row_major = true; }
// SetMMLayoutTransform: the name of this setting before CANN 8.5 (true = SetMMRowMajor, false =
// SetMMColumnMajor).
inline void SetMMLayoutTransform(bool rowMajor) { npukb::kern::cube_regs().mm_row_major = rowMajor; }

// HF32: float L0A/L0B data are rounded to 11 mantissa bits before the multiply (twice the float rate).
inline void SetHF32Mode(HF32Mode mode) { npukb::kern::cube_regs().hf32 = mode == HF32Mode::ENABLE; }
// The register takes a flag: kernels written against older headers pass a bool.
inline void SetHF32Mode(bool enable) { npukb::kern::cube_regs().hf32 = enable; }
inline void SetHF32TransMode(HF32TransMode mode) {
  npukb::kern::cube_regs().hf32_to_zero = mode == HF32TransMode::NEAREST_ZERO;
}
// Before CANN 8.5 the setting took a bool (true = round towards zero).
inline void SetHF32TransMode(bool toZero) { npukb::kern::cube_regs().hf32_to_zero = toZero; }

}  // namespace AscendC
