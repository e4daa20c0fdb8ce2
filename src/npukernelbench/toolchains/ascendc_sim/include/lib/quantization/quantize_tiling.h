// lib/quantization/quantize_tiling.h -- host helpers of the Quantize kernel API (an Ascend 950 API whose
// host figures the simulator still reports): GetQuantizeMaxMinTmpSize and GetQuantizeTmpBufferFactorSize,
// the figures of AscendQuant (the page describes the same computation). Part of the ascendc-sim
// clean-room simulator; figures in npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/quantization/ascend_quant_tiling.h"

namespace AscendC {

inline void GetQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                     uint32_t& minValue) {
  GetAscendQuantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}

inline void GetQuantizeTmpBufferFactorSize(uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  GetAscendQuantTmpBufferFactorSize(maxLiveNodeCount, extraBuf);
}

}  // namespace AscendC
