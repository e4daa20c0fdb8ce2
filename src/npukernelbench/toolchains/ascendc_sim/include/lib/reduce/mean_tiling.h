// lib/reduce/mean_tiling.h -- host helper of the Mean kernel API: its temporary-buffer size.
// Part of the ascendc-sim clean-room simulator (figures: npukb_sim/lib_tmp_sizes.h).
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tmp_sizes.h"

namespace AscendC {

// The maximum equals the minimum, as documented for the real API.
inline void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t accTypeSize,
                                 const bool /*isReuseSource*/, uint32_t& maxSize, uint32_t& minSize) {
  minSize = npukb_lib::MeanTmpBytes(n, srcTypeSize, accTypeSize);
  maxSize = minSize;
}

}  // namespace AscendC
