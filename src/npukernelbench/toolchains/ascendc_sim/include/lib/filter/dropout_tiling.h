// lib/filter/dropout_tiling.h -- host helpers of the DropOut kernel API: GetDropOutMaxTmpSize,
// GetDropOutMinTmpSize and GetDropOutMaxMinTmpSize. srcShape reads as [rows, last dim]: the minimum
// holds one row, the maximum every row. Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/transform_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/transform_tmp_sizes.h"

namespace AscendC {

inline uint32_t GetDropOutMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
  (void)isReuseSource;
  const npukb_lib::FirstLast s = npukb_lib::ReadFirstLast(srcShape);
  return s.last == 0 ? 0 : npukb_lib::DropOutRowBytes(s.last, typeSize);
}
inline uint32_t GetDropOutMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource) {
  const npukb_lib::FirstLast s = npukb_lib::ReadFirstLast(srcShape);
  return s.first * GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  maxValue = GetDropOutMaxTmpSize(srcShape, typeSize, isReuseSource);
  minValue = GetDropOutMinTmpSize(srcShape, typeSize, isReuseSource);
}

}  // namespace AscendC
