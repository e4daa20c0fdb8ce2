// lib/quantization/dequantize_tiling.h -- host helpers of the Dequantize kernel API (an Ascend 950 API
// whose host figures the simulator still reports): GetDequantizeMaxMinTmpSize and
// GetDequantizeTmpBufferFactorSize over the 4-byte source [m, n] (a 1-dim shape is one row), the figures
// of AscendDequant (the page describes the same computation). Part of the ascendc-sim clean-room
// simulator; figures in npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/quant_tmp_sizes.h"

namespace AscendC {

inline void GetDequantizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                       uint32_t& minValue) {
  (void)typeSize;   // int32_t or float: 4 bytes, converted to fp32 in place of a copy of the same size
  uint32_t m = 0, n = 0;
  npukb_norm::ReadRows(srcShape, m, n);
  maxValue = npukb_lib::AscendDequantMaxBytes(m, n);
  minValue = npukb_lib::AscendDequantMinBytes(n);
}

// One fp32 node per source element (typeSize 4) and the fp32 scale row.
inline void GetDequantizeTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCnt, uint32_t& extraBuf) {
  uint32_t m = 0, n = 0;
  npukb_norm::ReadRows(srcShape, m, n);
  maxLiveNodeCnt = 1;
  extraBuf = npukb_lib::AscendDequantExtraBytes(n);
}

}  // namespace AscendC
