// npukb_sim/conv_geometry.h -- the simulator's convolution geometry helpers (npukb::conv) that the Conv3D
// forward and backprop tilings share: a tensor's (position, format, dtype) description, ceil_div /
// align_up, and the forward output extent of one axis. Header-only, no global names. Clean-room part of
// ascendc-sim.
#pragma once
#include <cstdint>

#include "lib/conv/conv_common_types.h"

namespace npukb {
namespace conv {
struct TypeDesc {
  ConvCommonApi::TPosition pos;
  ConvCommonApi::ConvFormat format;
  ConvCommonApi::ConvDtype dtype;
};
inline uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
inline uint64_t align_up(uint64_t a, uint64_t b) { return ceil_div(a, b) * b; }
// The forward output extent of one axis (0 when the dilated kernel does not fit the padded input).
inline int64_t out_len(int64_t in, int64_t pad_a, int64_t pad_b, int64_t k, int64_t dil, int64_t stride) {
  const int64_t span = dil * (k - 1) + 1;
  const int64_t padded = in + pad_a + pad_b;
  return padded < span ? 0 : (padded - span) / stride + 1;
}
}  // namespace conv
}  // namespace npukb
