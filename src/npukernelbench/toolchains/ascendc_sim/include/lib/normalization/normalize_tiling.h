// lib/normalization/normalize_tiling.h -- host helper of the Normalize kernel API:
// GetNormalizeMaxMinTmpSize over srcShape {A, R} (typeSizeU: gamma / beta, typeSizeT: inputX).
// Normalize takes no tiling structure. Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

// isComputeRstd is documented as true only and isOnlyOutput as false only.
inline void GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  (void)isComputeRstd;
  (void)isOnlyOutput;
  uint32_t a = 0, r = 0;
  npukb_norm::ReadRows(srcShape, a, r);
  const uint32_t fixed = npukb_lib::NormalizeFixedBytes(r, typeSizeU), row = npukb_lib::NormalizeRowBytes(r, typeSizeT);
  minValue = fixed + row;
  maxValue = fixed + (a == 0 ? 1 : a) * row;
}

}  // namespace AscendC
