// lib/quantization/antiquantize_tiling.h -- host helpers of the AntiQuantize kernel API (an Ascend 950
// API whose host figures the simulator still reports): GetAntiQuantizeMaxMinTmpSize and
// GetAntiQuantizeTmpBufferFactorSize, the figures of AscendAntiQuant (the page describes the same
// computation): the minimum holds one row of the source's last dimension, the maximum the whole source;
// a bfloat16_t or float output takes the fp32 path (more bytes per element). isTranspose is reserved
// (false only, the page says) and does not change the figures. Part of the ascendc-sim clean-room
// simulator; figures in npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/quant_tmp_sizes.h"

namespace AscendC {

inline void GetAntiQuantizeMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                         ge::DataType inputDataType, ge::DataType outputDataType, uint32_t& maxValue,
                                         uint32_t& minValue) {
  (void)scaleShape;
  (void)isTranspose;
  (void)inputDataType;
  uint32_t rows = 0, row = 0;
  npukb_norm::ReadRows(srcShape, rows, row);
  const bool half_output = outputDataType == ge::DT_FLOAT16;
  maxValue = npukb_lib::AscendAntiQuantMaxBytes(static_cast<uint64_t>(rows) * row, !half_output);
  minValue = npukb_lib::AscendAntiQuantMinBytes(row, !half_output);
}

// Bytes per source element of one byte (8-bit sources: typeSize 1), no extra buffer.
inline void GetAntiQuantizeTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                               ge::DataType inputDataType, ge::DataType outputDataType,
                                               uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  (void)srcShape;
  (void)scaleShape;
  (void)inputDataType;
  maxLiveNodeCount = npukb_lib::AntiQuantizeNodeBytes(outputDataType == ge::DT_FLOAT16);
  extraBuf = 0;
}

}  // namespace AscendC
