// lib/quantization/ascend_antiquant_tiling.h -- host helpers of the AscendAntiQuant kernel API:
// GetAscendAntiQuantMaxMinTmpSize, GetAscendAntiQuantMaxTmpSize, GetAscendAntiQuantMinTmpSize and
// GetAscendAntiQuantTmpBufferFactorSize. The minimum holds one row of the source's last dimension, the
// maximum the whole source; a bfloat16_t output takes the fp32 path (more bytes per element). Part of
// the ascendc-sim clean-room simulator; figures in npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/quant_tmp_sizes.h"

namespace AscendC {

inline uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
  (void)scaleShape;
  (void)isTranspose;
  (void)inputDataType;
  uint32_t rows = 0, row = 0;
  npukb_norm::ReadRows(srcShape, rows, row);
  return npukb_lib::AscendAntiQuantMaxBytes(static_cast<uint64_t>(rows) * row, outputDataType == ge::DT_BF16);
}

inline uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                             ge::DataType inputDataType, ge::DataType outputDataType) {
  (void)scaleShape;
  (void)isTranspose;
  (void)inputDataType;
  uint32_t rows = 0, row = 0;
  npukb_norm::ReadRows(srcShape, rows, row);
  return npukb_lib::AscendAntiQuantMinBytes(row, outputDataType == ge::DT_BF16);
}

inline void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool isTranspose,
                                            ge::DataType inputDataType, ge::DataType outputDataType, uint32_t& maxValue,
                                            uint32_t& minValue) {
  maxValue = GetAscendAntiQuantMaxTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
  minValue = GetAscendAntiQuantMinTmpSize(srcShape, scaleShape, isTranspose, inputDataType, outputDataType);
}

// Bytes per source element of one byte (an int8_t source: typeSize 1), no extra buffer.
inline void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape,
                                                  bool isTranspose, ge::DataType inputDataType,
                                                  ge::DataType outputDataType, uint32_t& maxLiveNodeCount,
                                                  uint32_t& extraBuf) {
  (void)srcShape;
  (void)scaleShape;
  (void)isTranspose;
  (void)inputDataType;
  maxLiveNodeCount = npukb_lib::AscendAntiQuantNodeBytes(outputDataType == ge::DT_BF16);
  extraBuf = 0;
}

}  // namespace AscendC
