// npukb_sim/kernel/cube_mmad.h -- Mmad: C (CO1/L0C, NZ) = [C or bias or 0] + A (A2/L0A, zZ) x B (B2/L0B, nZ).
// Operand checks here; the arithmetic is npukb::cube_mmad (runtime/cube_engine.cpp). Clean-room part of
// ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/cube_engine.h"
#include "npukb_sim/kernel/cube_operand.h"
#include "npukb_sim/kernel/cube_types.h"

namespace AscendC {
namespace sim {

template <typename T, typename U, typename S>
constexpr bool mmad_types_ok =
    (std::is_same_v<T, float> && std::is_same_v<U, half> && std::is_same_v<S, half>) ||
    (std::is_same_v<T, float> && std::is_same_v<U, bfloat16_t> && std::is_same_v<S, bfloat16_t>) ||
    (std::is_same_v<T, float> && std::is_same_v<U, float> && std::is_same_v<S, float>) ||
    (std::is_same_v<T, std::int32_t> && std::is_same_v<U, std::int8_t> && std::is_same_v<S, std::int8_t>) ||
    (std::is_same_v<T, std::int32_t> && std::is_same_v<U, std::uint8_t> && std::is_same_v<S, std::uint8_t>);

template <typename U>
constexpr npukb::CubeInput cube_input() {
  if constexpr (std::is_same_v<U, half>) return npukb::CubeInput::F16;
  else if constexpr (std::is_same_v<U, bfloat16_t>) return npukb::CubeInput::BF16;
  else if constexpr (std::is_same_v<U, float>) return npukb::CubeInput::F32;
  else if constexpr (std::is_same_v<U, std::int8_t>) return npukb::CubeInput::S8;
  else return npukb::CubeInput::U8;
}

template <typename T, typename U, typename S, typename V>
inline void mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>* bias, const MmadParams& p, const char* file, int line) {
  static_assert(mmad_types_ok<T, U, S>,
                "Mmad supports (dst, fm, filter) = (float, half, half), (float, bfloat16_t, bfloat16_t), "
                "(float, float, float), (int32_t, int8_t, int8_t) and (int32_t, uint8_t, uint8_t)");
  require_cube_core("Mmad", file, line);
  if (p.m > 4095 || p.n > 4095 || p.k > 4095) {
    npukb::violation("Mmad", "m, n, k must be at most 4095 (got m=" + npukb::kern::num(p.m) + ", n=" +
                     npukb::kern::num(p.n) + ", k=" + npukb::kern::num(p.k) + ")", file, line);
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  constexpr std::uint32_t k0 = 32 / sizeof(U);
  const std::uint64_t m1 = (p.m + 15) / 16, n1 = (p.n + 15) / 16, k1 = (p.k + k0 - 1) / k0;
  const std::uint64_t a_bytes = m1 * k1 * 512, b_bytes = k1 * n1 * 512, c_bytes = m1 * n1 * 256 * sizeof(T);
  check_cube_operand("Mmad", "fm (left matrix A)", fm, a_bytes, {Hardware::L0A}, file, line);
  check_cube_operand("Mmad", "filter (right matrix B)", filter, b_bytes, {Hardware::L0B}, file, line);
  check_cube_operand("Mmad", "dst (C)", dst, c_bytes, {Hardware::L0C}, file, line);
  npukb::MmadJob job;
  job.input = cube_input<U>();
  job.a = fm.ptr();
  job.b = filter.ptr();
  job.c = dst.ptr();
  job.m = p.m;
  job.n = p.n;
  job.k = p.k;
  const bool accumulate = p.isBias || (!p.cmatrixInitVal && !p.cmatrixSource);
  job.init = accumulate ? 0 : 1;
  npukb::kern::CubeSpan reads[4] = {cube_span(fm, 0, a_bytes), cube_span(filter, 0, b_bytes)};
  int nreads = 2;
  if (bias != nullptr) {
    static_assert(std::is_same_v<V, T>, "Mmad: the bias must have the type of the result (float, or int32_t for int8)");
    check_cube_operand("Mmad", "bias", *bias, n1 * 16 * sizeof(T), {Hardware::BIAS}, file, line);
    job.bias = bias->ptr();
    job.init = 2;
    reads[nreads++] = cube_span(*bias, 0, n1 * 16 * sizeof(T));
  }
  if (accumulate) reads[nreads++] = cube_span(dst, 0, c_bytes);
  npukb::cube_mmad(job);
  const npukb::kern::CubeSpan out = cube_span(dst, 0, c_bytes);
  npukb::kern::schedule_cube(npukb::PIPE_ID_M, npukb::kern::mmad_cycles(p.m, p.n, p.k, k0), reads, nreads, &out, 1);
}

}  // namespace sim

template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p) { NPUKB_CALLER;
  sim::mmad<T, U, S, T>(dst, fm, filter, nullptr, p, file, line);
}

// With a bias in the bias table (C2): C = bias (broadcast over rows) + A x B.
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                 const LocalTensor<V>& bias, const MmadParams& p) { NPUKB_CALLER;
  sim::mmad<T, U, S, V>(dst, fm, filter, &bias, p, file, line);
}

}  // namespace AscendC
