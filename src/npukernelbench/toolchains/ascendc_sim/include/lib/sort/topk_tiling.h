// lib/sort/topk_tiling.h -- host helpers of the TopK kernel API: GetTopKMaxMinTmpSize (both documented
// forms) and TopKTilingFunc (optiling::TopkTiling, AscendC::tiling::TopkTiling). Part of the ascendc-sim
// clean-room simulator; figures in npukb_sim/sort_tmp_sizes.h.
//
// Both return false for a shape TopK does not take: inner not a positive multiple of 32, outter below
// 1, the small mode with inner other than 32, the normal mode above 4096, a type size other than 2 or 4;
// TopKTilingFunc also for k outside [1, inner]. The second GetTopKMaxMinTmpSize form serves the Ascend
// 950's RADIX_SELECT: on the A2 / A3 series it answers for the MERGE_SORT configuration
// (defaultTopKConfig) and returns false for any other. The tiling's fields are the documented ones; the
// simulator's kernel checks innerDataSize and kAlignFourBytes / kAlignTwoBytes against the call.
#pragma once
#include <cstdint>

#include "graph/types.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_tiling_fields.h"
#include "npukb_sim/sort_tmp_sizes.h"
#include "npukb_sim/sort_types.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TopkTiling)
bool NpukbBuiltin() const override { return true; }
NPUKB_TOPK_TILING_FIELDS(NPUKB_TILING_DATA_FIELD)
END_TILING_DATA_DEF;
}  // namespace optiling

namespace npukb_lib {

inline bool TopKShapeOk(int32_t inner, int32_t outter, AscendC::TopKMode mode, uint32_t type_size) {
  if (inner < 32 || inner % 32 != 0 || outter < 1 || (type_size != 2 && type_size != 4)) return false;
  return mode == AscendC::TopKMode::TOPK_NSMALL ? inner == 32 : inner <= 4096;
}

inline void FillTopK(int32_t inner, int32_t outter, int32_t k, uint32_t type_size, bool is_init_index,
                     AscendC::TopKMode mode, bool is_largest, ::TopkTiling& t) {
  const bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
  const auto pair_elems = static_cast<int32_t>(kSortPairBytes / type_size);   // elements of T per sorted pair
  t = ::TopkTiling{};
  t.tmpLocalSize = static_cast<int32_t>(TopKMinTmpBytes(static_cast<uint32_t>(inner), static_cast<uint32_t>(outter),
                                                        is_init_index, small, is_largest, type_size));
  t.allDataSize = inner * outter;
  t.innerDataSize = inner;
  t.sortRepeat = static_cast<uint32_t>(inner / 32);
  int32_t passes = 0;
  for (int32_t run = 32; run < inner; run *= 4) ++passes;
  t.mrgSortRepeat = passes;
  t.kAlignFourBytes = static_cast<int32_t>(AlignUp(static_cast<uint32_t>(k), 8));
  t.kAlignTwoBytes = static_cast<int32_t>(AlignUp(static_cast<uint32_t>(k), 16));
  t.maskOffset = k;
  t.maskVreducev2FourBytes = 2 * k;
  t.maskVreducev2TwoBytes = 4 * k;
  t.mrgSortSrc1offset = 32 * pair_elems;
  t.mrgSortSrc2offset = 2 * 32 * pair_elems;
  t.mrgSortSrc3offset = 3 * 32 * pair_elems;
  t.mrgSortTwoQueueSrc1Offset = 32 * pair_elems;
  t.srcIndexOffset = small ? 32 : inner;
  t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 4 / 32);
  t.topkNSmallSrcIndexOffset = small ? 32 * outter : 0;
  t.vreduceValMask0 = 0x55555555u;   // the score lanes of 4-byte pairs
  t.vreduceValMask1 = 0x55555555u;
  t.vreduceIdxMask0 = 0xAAAAAAAAu;   // the index lanes
  t.vreduceIdxMask1 = 0xAAAAAAAAu;
  t.vreducehalfValMask0 = t.vreducehalfValMask1 = t.vreducehalfValMask2 = t.vreducehalfValMask3 = 0x1111u;
  t.vreducehalfValMask4 = t.vreducehalfValMask5 = t.vreducehalfValMask6 = t.vreducehalfValMask7 = 0x1111u;
}

#define NPUKB_TOPK_TO_CLASS(type, name) dst.set_##name(src.name);
inline void ToClass(const ::TopkTiling& src, optiling::TopkTiling& dst) { NPUKB_TOPK_TILING_FIELDS(NPUKB_TOPK_TO_CLASS) }
#undef NPUKB_TOPK_TO_CLASS

}  // namespace npukb_lib

namespace AscendC {

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  if (!npukb_lib::TopKShapeOk(inner, outter, mode, dataTypeSize)) return false;
  const bool small = mode == TopKMode::TOPK_NSMALL;
  minValue = npukb_lib::TopKMinTmpBytes(static_cast<uint32_t>(inner), static_cast<uint32_t>(outter), isInitIndex, small,
                                        isLargest, dataTypeSize);
  maxValue = npukb_lib::TopKMaxTmpBytes(static_cast<uint32_t>(inner), static_cast<uint32_t>(outter), isInitIndex, small,
                                        isLargest, dataTypeSize);
  return true;
}

inline bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter, const int32_t k, const bool isReuseSource,
                                 const bool isInitIndex, enum TopKMode mode, const bool isLargest, ge::DataType dataType,
                                 const TopKConfig& config, uint32_t& maxValue, uint32_t& minValue) {
  if (config.algo != TopKAlgo::MERGE_SORT || config.order != TopKOrder::UNSET || !config.sorted) return false;
  if (k < 1 || k > inner) return false;
  return GetTopKMaxMinTmpSize(platform_ascendc::PlatformAscendC(nullptr), inner, outter, isReuseSource, isInitIndex, mode,
                              isLargest, static_cast<uint32_t>(ge::GetSizeByDataType(dataType)), maxValue, minValue);
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, AscendC::tiling::TopkTiling& topKTiling) {
  (void)ascendcPlatform;
  if (!npukb_lib::TopKShapeOk(inner, outter, mode, dataTypeSize) || k < 1 || k > inner) return false;
  npukb_lib::FillTopK(inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, topKTiling);
  return true;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
  ::TopkTiling plain{};
  if (!TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, plain)) return false;
  npukb_lib::ToClass(plain, topKTiling);
  return true;
}

}  // namespace AscendC
