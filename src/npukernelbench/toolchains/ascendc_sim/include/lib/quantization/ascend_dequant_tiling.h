// lib/quantization/ascend_dequant_tiling.h -- host helpers of the AscendDequant kernel API:
// GetAscendDequantMaxMinTmpSize and GetAscendDequantTmpBufferFactorSize over the int32 source
// [m, n] (a 1-dim shape is one row). Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/quant_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/quant_tmp_sizes.h"

namespace AscendC {

inline void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                          uint32_t& minValue) {
  (void)typeSize;
  uint32_t m = 0, n = 0;
  npukb_norm::ReadRows(srcShape, m, n);
  maxValue = npukb_lib::AscendDequantMaxBytes(m, n);
  minValue = npukb_lib::AscendDequantMinBytes(n);
}

// One fp32 node per source element (typeSize 4) and the fp32 scale row.
inline void GetAscendDequantTmpBufferFactorSize(const ge::Shape& srcShape, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  uint32_t m = 0, n = 0;
  npukb_norm::ReadRows(srcShape, m, n);
  maxLiveNodeCount = 1;
  extraBuf = npukb_lib::AscendDequantExtraBytes(n);
}

}  // namespace AscendC
