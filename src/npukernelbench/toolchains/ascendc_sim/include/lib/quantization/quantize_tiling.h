// lib/quantization/quantize_tiling.h -- host helpers of the Quantize kernel API (an Ascend 950 API whose
// host figures the simulator still reports): GetQuantizeMaxMinTmpSize and GetQuantizeTmpBufferFactorSize,
// the figures of AscendQuant (the page describes the same computation). Part of the ascendc-sim
// clean-room simulator; figures in npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/quant_tmp_sizes.h"

namespace AscendC {

inline void GetQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                     uint32_t& minValue) {
  const int64_t n = srcShape.GetShapeSize();
  const uint64_t count = n < 0 ? 0 : static_cast<uint64_t>(n);
  maxValue = npukb_lib::AscendQuantMaxBytes(count, typeSize);
  minValue = npukb_lib::AscendQuantMinBytes(count, typeSize);
}

// The work buffer holds maxLiveNodeCount source-sized values per element, and extraBuf bytes more.
inline void GetQuantizeTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = npukb_lib::kAscendQuantLiveNodes;
  extraBuf = 0;
}

}  // namespace AscendC
