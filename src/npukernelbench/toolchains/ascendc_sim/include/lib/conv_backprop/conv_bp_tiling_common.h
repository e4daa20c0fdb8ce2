// lib/conv_backprop/conv_bp_tiling_common.h -- the host-side pieces the convolution backprop tilings share:
// ConvBackpropApi::PlatformInfo (the per-core memory sizes a tiling object may be built from) and the
// simulator's helpers (npukb::convbp). Header-only. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "lib/conv/conv_common_types.h"
#include "tiling/platform/platform_ascendc.h"

namespace ConvBackpropApi {
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};
}  // namespace ConvBackpropApi

namespace npukb {
namespace convbp {
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
}  // namespace convbp
}  // namespace npukb
