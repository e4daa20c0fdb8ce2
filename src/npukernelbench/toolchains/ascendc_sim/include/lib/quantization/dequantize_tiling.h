// lib/quantization/dequantize_tiling.h -- host helpers of the Dequantize kernel API (an Ascend 950 API
// whose host figures the simulator still reports): GetDequantizeMaxMinTmpSize and
// GetDequantizeTmpBufferFactorSize over the 4-byte source [m, n] (a 1-dim shape is one row), the figures
// of AscendDequant (the page describes the same computation). Part of the ascendc-sim clean-room
// simulator; figures in npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/quantization/ascend_dequant_tiling.h"

namespace AscendC {

inline void GetDequantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                       uint32_t& minValue) {
  GetAscendDequantMaxMinTmpSize(srcShape, typeSize, maxValue, minValue);
}

inline void GetDequantizeTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  GetAscendDequantTmpBufferFactorSize(srcShape, maxLiveNodeCnt, extraBuf);
}

}  // namespace AscendC
