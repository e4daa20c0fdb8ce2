// lib/conv_backprop/conv_bp_tiling_common.h -- the host-side platform description the convolution
// backprop tiling classes take (ConvBackpropApi::PlatformInfo, the fields the tiling constructor pages
// list). Clean-room part of ascendc-sim.
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
