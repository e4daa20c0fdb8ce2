// lib/filter/select_tiling.h -- host helpers of the high-level Select kernel API (bytes mask):
// GetSelectMinTmpSize, GetSelectMaxTmpSize, GetSelectMaxMinTmpSize and their deprecated names
// GetSelectWithBytesMask{Min,Max,MaxMin}TmpSize. The data shape is the tensor operand's (the scalar one is
// {1}), read as [rows, last dim] like the mask's. Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/transform_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/transform_tmp_sizes.h"

namespace npukb_lib {
struct SelectShape {
  uint32_t first = 0, src_last = 0, mask_last = 0;
};
inline SelectShape ReadSelectShape(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const ge::Shape& maskShape) {
  const FirstLast a = ReadFirstLast(src0Shape), b = ReadFirstLast(src1Shape), m = ReadFirstLast(maskShape);
  const FirstLast& data = static_cast<uint64_t>(a.first) * a.last >= static_cast<uint64_t>(b.first) * b.last ? a : b;
  return {data.first, data.last, m.last};
}
}  // namespace npukb_lib

namespace AscendC {

inline uint32_t GetSelectMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
  (void)srcTypeSize;
  const npukb_lib::SelectShape s = npukb_lib::ReadSelectShape(src0Shape, src1Shape, maskShape);
  return npukb_lib::SelectMinTmpBytes(s.first, s.src_last, s.mask_last, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                    const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask) {
  (void)srcTypeSize;
  const npukb_lib::SelectShape s = npukb_lib::ReadSelectShape(src0Shape, src1Shape, maskShape);
  return npukb_lib::SelectMaxTmpBytes(s.first, s.src_last, s.mask_last, maskTypeSize, isReuseMask);
}
inline void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                   const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                                   uint32_t& maxValue, uint32_t& minValue) {
  maxValue = GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
  minValue = GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}

// The deprecated names.
inline uint32_t GetSelectWithBytesMaskMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
  return GetSelectMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline uint32_t GetSelectWithBytesMaskMaxTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                 const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                 const uint32_t maskTypeSize, const bool isReuseMask) {
  return GetSelectMaxTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask);
}
inline void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,
                                                uint32_t& minValue) {
  GetSelectMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask, maxValue, minValue);
}

}  // namespace AscendC
