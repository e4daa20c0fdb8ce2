// lib/sort/sort_tiling.h -- host helpers of the sort kernel APIs: GetConcatTmpSize, GetSortTmpSize (the
// work buffers of Concat and Sort<T, isFullSort>) and GetSortMaxMinTmpSize (Sort with a SortConfig, an
// Ascend 950 API whose host figure the simulator still reports). Part of the ascendc-sim clean-room
// simulator; figures in npukb_sim/sort_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "graph/types.h"
#include "npukb_sim/sort_tmp_sizes.h"
#include "npukb_sim/sort_types.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

inline uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                                 const uint32_t dataTypeSize) {
  (void)ascendcPlatform;
  return npukb_lib::ConcatTmpBytes(elemCount, dataTypeSize);
}

inline uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t elemCount,
                               const uint32_t dataTypeSize) {
  (void)ascendcPlatform;
  (void)dataTypeSize;   // the pairs take 8 bytes whatever the score type
  return npukb_lib::SortTmpBytes(elemCount);
}

// The maximum equals the minimum; both are 0 for the combination the page rules out (source indices
// without destination indices) and for a MERGE_SORT count that is not a multiple of 32.
inline void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType, ge::DataType indexType,
                                 bool isReuseSource, const SortConfig& config, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  const int64_t n = srcShape.GetShapeSize();
  const bool merge = config.type == SortType::MERGE_SORT;
  if (n <= 0 || (merge && n % 32 != 0)) {
    maxValue = minValue = 0;
    return;
  }
  minValue = npukb_lib::SortConfigTmpBytes(static_cast<uint32_t>(n), static_cast<uint32_t>(ge::GetSizeByDataType(valueType)),
                                           static_cast<uint32_t>(ge::GetSizeByDataType(indexType)), merge,
                                           config.hasSrcIndex, config.hasDstIndex);
  maxValue = minValue;
}

}  // namespace AscendC
