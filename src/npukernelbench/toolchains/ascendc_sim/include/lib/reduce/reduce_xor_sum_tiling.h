// lib/reduce/reduce_xor_sum_tiling.h -- host helper of the ReduceXorSum kernel API:
// GetReduceXorSumMaxMinTmpSize over the source's element count (the maximum equals the minimum). Part of
// the ascendc-sim clean-room simulator; figures in npukb_sim/reduce_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/reduce_tmp_sizes.h"

namespace AscendC {

inline void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                         uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;   // int16_t, the only type
  const int64_t n = srcShape.GetShapeSize();
  minValue = n <= 0 ? 0 : npukb_lib::ReduceXorSumTmpBytes(static_cast<uint32_t>(n), isReuseSource);
  maxValue = minValue;
}

}  // namespace AscendC
