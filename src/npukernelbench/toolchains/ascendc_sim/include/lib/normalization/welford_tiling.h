// lib/normalization/welford_tiling.h -- host helpers of the WelfordUpdate and WelfordFinalize kernel
// APIs: GetWelfordUpdateMaxMinTmpSize (srcShape {rnLength, abLength}) and
// GetWelfordFinalizeMaxMinTmpSize (srcShape {abLength}). Both APIs take their sizes from a parameter
// struct, not a tiling. One pass always: the maximum equals the minimum. Part of the ascendc-sim
// clean-room simulator; figures in npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
  (void)typeSizeU;
  (void)isReuseSource;
  (void)isInplace;
  uint32_t rn = 0, ab = 0;
  npukb_norm::ReadRows(srcShape, rn, ab);
  minValue = npukb_lib::WelfordUpdateBytes(ab, typeSizeT);
  maxValue = minValue;
}

inline void GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                            uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  uint32_t rows = 0, ab = 0;
  npukb_norm::ReadRows(srcShape, rows, ab);
  minValue = npukb_lib::WelfordFinalizeBytes(ab);
  maxValue = minValue;
}

}  // namespace AscendC
