// lib/activation/logsoftmax_tiling.h -- host helpers of the LogSoftMax kernel API: its temporary-buffer
// sizes and LogSoftMaxTilingFunc (optiling:: and AscendC::tiling:: forms). LogSoftMax works like SoftMax:
// the same row work (npukb_sim/lib_tmp_sizes.h) and tiling fields (npukb_sim/softmax_split.h). Part of
// the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/activation/logsoftmax_tilingdata.h"
#include "lib/activation/softmax_tiling.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/softmax_split.h"

namespace AscendC {

inline uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_softmax::RowsM(srcShape) * npukb_lib::LogSoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize);
}

inline uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_lib::LogSoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize);
}

inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                 optiling::LogSoftMaxTiling& softmaxTiling) {
  npukb_softmax::FillFor(srcShape, dataTypeSize, npukb_lib::LogSoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize),
                         localWorkSpaceSize, softmaxTiling);
}

inline void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                 AscendC::tiling::LogSoftMaxTiling& softmaxTiling) {
  ::npukb_softmax::PlainRowsTiling<AscendC::tiling::LogSoftMaxTiling> adapter{softmaxTiling};
  npukb_softmax::FillFor(srcShape, dataTypeSize, npukb_lib::LogSoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize),
                         localWorkSpaceSize, adapter);
}

}  // namespace AscendC
