// lib/activation/softmax_tiling.h -- host helpers of the SoftMax / SimpleSoftMax / SoftmaxFlashV2
// kernel APIs: temporary-buffer sizes, SoftMaxTilingFunc and SoftMaxFlashV2TilingFunc. Part of the
// ascendc-sim clean-room simulator.
//
// The source is seen as rows: k = last dim, m = product of the other dims; the fields are those of
// npukb_sim/softmax_split.h (rows per pass from localWorkSpaceSize and npukb_sim/lib_tmp_sizes.h).
// splitM is 0 when localWorkSpaceSize is below the Get*MinTmpSize figure (the kernel API then refuses).
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/activation/softmax_tilingdata.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/softmax_split.h"

namespace AscendC {

namespace npukb_softmax {
inline void Rows(const ge::Shape& shape, uint32_t& m, uint32_t& k) {
  m = 1;
  k = 1;
  size_t n = shape.GetDimNum();
  for (size_t i = 0; i + 1 < n; ++i) m *= static_cast<uint32_t>(shape.GetDim(i));
  if (n > 0) k = static_cast<uint32_t>(shape.GetDim(n - 1));
}

template <typename Tiling>
void Fill(const ge::Shape& src_shape, uint32_t data_type_size, uint32_t local_work_space_size, Tiling& t) {
  uint32_t m = 0, k = 0;
  Rows(src_shape, m, k);
  ::npukb_softmax::FillRows(m, k, data_type_size, npukb_lib::SoftMaxMinTmpBytes(k, data_type_size), local_work_space_size, t);
}

template <typename Tiling>
void FillFlashV2(const ge::Shape& src_shape, uint32_t data_type_size1, uint32_t data_type_size2,
                 uint32_t local_work_space_size, bool is_update, Tiling& t) {
  uint32_t m = 0, k = 0;
  Rows(src_shape, m, k);
  ::npukb_softmax::FillRows(m, k, data_type_size2, npukb_lib::SoftMaxFlashV2MinTmpBytes(k, data_type_size1, is_update),
           local_work_space_size, t);
}
}  // namespace npukb_softmax

inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool /*isReuseSource*/) {
  uint32_t m = 0, k = 0;
  npukb_softmax::Rows(srcShape, m, k);
  return npukb_lib::SoftMaxMaxTmpBytes(m, k, dataTypeSize);
}

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                     const bool /*isReuseSource*/) {
  uint32_t m = 0, k = 0;
  npukb_softmax::Rows(srcShape, m, k);
  return npukb_lib::SoftMaxMinTmpBytes(k, dataTypeSize);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxTiling) {
  npukb_softmax::Fill(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                              const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& softmaxTiling) {
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxTiling};
  npukb_softmax::Fill(srcShape, dataTypeSize, localWorkSpaceSize, adapter);
}

// SoftmaxFlashV2: dataTypeSize1 is the source's element size, dataTypeSize2 the max / sum tensors'.
// isBasicBlock and isFlashOutputBrc change how the device schedules the work, not the sizes here.
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t /*dataTypeSize2*/, const bool isUpdate,
                                            const bool /*isBasicBlock*/ = false, const bool /*isFlashOutputBrc*/ = false) {
  uint32_t m = 0, k = 0;
  npukb_softmax::Rows(srcShape, m, k);
  return npukb_lib::SoftMaxFlashV2MinTmpBytes(k, dataTypeSize1, isUpdate);
}

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t /*dataTypeSize2*/, const bool isUpdate,
                                            const bool /*isBasicBlock*/ = false, const bool /*isFlashOutputBrc*/ = false) {
  uint32_t m = 0, k = 0;
  npukb_softmax::Rows(srcShape, m, k);
  return m * npukb_lib::SoftMaxFlashV2MinTmpBytes(k, dataTypeSize1, isUpdate);
}

inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool /*isBasicBlock*/ = false,
                                     const bool /*isFlashOutputBrc*/ = false) {
  npukb_softmax::FillFlashV2(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isUpdate, softmaxFlashTiling);
}

inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, tiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool /*isBasicBlock*/ = false,
                                     const bool /*isFlashOutputBrc*/ = false) {
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxFlashTiling};
  npukb_softmax::FillFlashV2(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isUpdate, adapter);
}

}  // namespace AscendC
