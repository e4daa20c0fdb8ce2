// npukb_sim/kernel/lib_norm_rows.h -- the row arithmetic the normalization APIs share: reading
// operands into fp32 (the APIs compute in fp32 and round each output once to its type), the
// statistics of a row in the order the vector instructions form them (each term scaled by 1/n, then a
// binary sum), and the shape of a [B, S, H] call taken from its tiling. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/lib_support.h"

namespace AscendC {
namespace sim {

template <typename T>
inline std::vector<float> fp32_copy(const LocalTensor<T>& t, std::uint64_t n) {
  std::vector<float> v(n);
  const T* p = t.ptr();
  for (std::uint64_t i = 0; i < n; ++i) v[i] = static_cast<float>(p[i]);
  return v;
}

// Mean and variance of x[0..valid): mean = sum(x * rec), var = sum((x - mean)^2 * rec).
inline void row_mean_var(const float* x, std::uint32_t valid, float rec, float& mean, float& var) {
  std::vector<float> t(valid);
  for (std::uint32_t j = 0; j < valid; ++j) t[j] = x[j] * rec;
  mean = tree_sum(t.data(), valid);
  for (std::uint32_t j = 0; j < valid; ++j) {
    const float d = x[j] - mean;
    t[j] = d * d * rec;
  }
  var = tree_sum(t.data(), valid);
}

// The [B, S, H] shape of a call as its tiling gives it: B * S rows of H stored elements, of which the
// first `valid` (the original H before 32-byte padding) are data.
struct BshShape {
  std::uint32_t b = 0, s = 0, h = 0, valid = 0;
  std::uint32_t rows() const { return b * s; }
  std::uint64_t elems() const { return static_cast<std::uint64_t>(b) * s * h; }
};

template <typename T>
inline BshShape bsh_from_tiling(const char* api, std::uint32_t b, std::uint32_t s, std::uint32_t h, std::uint32_t origin_h,
                                const char* host_fn, const char* file, int line) {
  BshShape r{b, s, h, origin_h};
  if (b == 0 || s == 0 || h == 0) {
    npukb::violation(api, std::string("the tiling has no shape (bLength ") + npukb::kern::num(b) + ", sLength " +
                     npukb::kern::num(s) + ", hLength " + npukb::kern::num(h) + "): fill it with " + host_fn +
                     " on the host", file, line);
  }
  if (static_cast<std::uint64_t>(h) * sizeof(T) % 32 != 0) {
    npukb::violation(api, "the last axis H = " + npukb::kern::num(h) + " is not 32-byte aligned (" +
                     npukb::kern::num(static_cast<long long>(h * sizeof(T))) + " bytes); pad it with zeros", file, line);
  }
  if (origin_h == 0 || origin_h > h) {
    npukb::violation(api, "originalHLength " + npukb::kern::num(origin_h) + " is outside (0, hLength = " +
                     npukb::kern::num(h) + "]", file, line);
  }
  return r;
}

// dtype of the normalization APIs' data operands on the Atlas A2 / A3 training series.
template <typename T>
constexpr bool norm_types = one_of<T, half, float>;

}  // namespace sim
}  // namespace AscendC
