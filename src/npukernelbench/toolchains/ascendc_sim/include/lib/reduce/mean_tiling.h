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

namespace AscendC {

// Mean's work buffer as maxLiveNodeCount source-sized values per element (a 16-bit source accumulated
// in fp32 takes 8 bytes per element), no extra bytes.
inline void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  maxLiveNodeCount = npukb_lib::MeanLiveNodes(typeSize);
  extraBuffer = 0;
}

}  // namespace AscendC
