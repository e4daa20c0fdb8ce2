// npukb_sim/kernel/lib_index.h -- Arange (and its older name ArithProgression): the arithmetic
// progression firstValue, firstValue + diffValue, ... of count elements, for int16_t, half, int32_t and
// float on the Atlas A2 / A3 series. Clean-room part of ascendc-sim, written from the API page.
//
// The page builds the sequence in three steps, which fix the rounding of the floating types: the first
// (up to) 8 elements with SetValue (first + i * diff, computed in float and rounded once to T), the next
// ones up to 64 by Adds of the first 8 with j * 8 * diff (j = 1 .. 7), the rest by Adds of the first 64
// with m * 64 * diff (m = 1, 2, ...); every Adds adds a scalar rounded to T and rounds the sum to T.
// Integer types are exact (wrapping as the hardware's integer adds do). Constraints (violations):
// count > 0 and diffValue >= 0.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "npukb_sim/kernel/lib_support.h"

namespace AscendC {
namespace sim {

template <typename T>
constexpr bool arange_types = one_of<T, std::int16_t, half, std::int32_t, float>;

template <typename T>
inline T arange_scaled(T diff, std::int64_t times) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::int64_t>(diff) * times);
  } else {
    return static_cast<T>(static_cast<float>(diff) * static_cast<float>(times));
  }
}
template <typename T>
inline T arange_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  } else {
    return static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
  }
}

template <typename T>
inline void arange_run(const char* api, const LocalTensor<T>& dst, T first, T diff, std::int32_t count, const char* file,
                       int line) {
  if (count <= 0) npukb::violation(api, "count " + npukb::kern::num(count) + " must be greater than 0", file, line);
  if (static_cast<double>(diff) < 0) {
    npukb::violation(api, "diffValue " + std::to_string(static_cast<double>(diff)) + " must be at least 0", file, line);
  }
  const auto n = static_cast<std::uint32_t>(count);
  check_local(api, "dst", dst, static_cast<std::uint64_t>(n) * sizeof(T), false, file, line);
  std::vector<T> v(n);
  for (std::uint32_t i = 0; i < n && i < 8; ++i) {
    if constexpr (std::is_integral_v<T>) {
      v[i] = static_cast<T>(static_cast<std::int64_t>(first) + static_cast<std::int64_t>(diff) * i);
    } else {
      v[i] = static_cast<T>(static_cast<float>(first) + static_cast<float>(diff) * static_cast<float>(i));
    }
  }
  for (std::uint32_t i = 8; i < n && i < 64; ++i) v[i] = arange_add(v[i % 8], arange_scaled(diff, 8 * (i / 8)));
  for (std::uint32_t i = 64; i < n; ++i) v[i] = arange_add(v[i % 64], arange_scaled(diff, 64 * (i / 64)));
  std::memcpy(dst.ptr(), v.data(), static_cast<std::uint64_t>(n) * sizeof(T));
  const npukb::kern::Span dp = vspan(dst, static_cast<std::uint64_t>(n) * sizeof(T));
  // 8 scalar SetValue writes, up to 7 Adds of 8, then one Adds of 64 per further 64 elements
  const std::uint32_t adds = (n > 8 ? (n < 64 ? (n - 1) / 8 : 7) : 0) + (n > 64 ? (n - 1) / 64 : 0);
  lib_cost(adds, 1, kLibSimple, n, nullptr, 0, &dp, 1);
}

}  // namespace sim

template <typename T>
inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const std::int32_t count) { NPUKB_CALLER;
  static_assert(sim::arange_types<T>, "Arange: unsupported data type (int16_t, half, int32_t, float)");
  sim::arange_run("Arange", dst, firstValue, diffValue, count, file, line);
}

// The name of Arange before CANN 8 (still used by real kernels).
template <typename T>
inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue, const std::int32_t count) { NPUKB_CALLER;
  static_assert(sim::arange_types<T>, "ArithProgression: unsupported data type (int16_t, half, int32_t, float)");
  sim::arange_run("ArithProgression", dstLocal, firstValue, diffValue, count, file, line);
}

}  // namespace AscendC
