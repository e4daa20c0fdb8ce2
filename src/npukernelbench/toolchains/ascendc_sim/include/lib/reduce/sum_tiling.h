// lib/reduce/sum_tiling.h -- host helper of the Sum kernel API: GetSumMaxMinTmpSize (the work row of
// the pairwise sum; the maximum equals the minimum). Part of the ascendc-sim clean-room simulator;
// figures in npukb_sim/reduce_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "npukb_sim/reduce_tmp_sizes.h"

namespace AscendC {

inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxSize,
                                uint32_t& minSize) {
  (void)isReuseSource;
  minSize = npukb_lib::SumTmpBytes(n, typeSize);
  maxSize = minSize;
}

}  // namespace AscendC
