// lib/activation/softmax_tiling.h -- host helpers of the SoftMax-family kernel APIs: temporary-buffer sizes
// and tiling functions of SoftMax / SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2, SoftmaxFlashV3 and
// SoftmaxGrad (optiling:: and AscendC::tiling:: forms), and IsBasicBlockInSoftMax. Part of the ascendc-sim
// clean-room simulator.
//
// The source is seen as rows: k = last dim, m = product of the other dims; the fields are those of
// npukb_sim/softmax_split.h (rows per pass from localWorkSpaceSize and npukb_sim/lib_tmp_sizes.h). min =
// one row's work, max = m rows'. splitM is 0 when localWorkSpaceSize is below the minimum (the kernel API
// then refuses a sharedTmpBuffer that small).
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
inline uint32_t RowsK(const ge::Shape& shape) {
  uint32_t m = 0, k = 0;
  Rows(shape, m, k);
  return k;
}
inline uint32_t RowsM(const ge::Shape& shape) {
  uint32_t m = 0, k = 0;
  Rows(shape, m, k);
  return m;
}

// Fill a tiling from the rows of src_shape and one row's work.
template <typename Tiling>
void FillFor(const ge::Shape& src_shape, uint32_t out_type_size, uint32_t row_work_bytes, uint32_t local_work_space_size, Tiling& t) {
  uint32_t m = 0, k = 0;
  Rows(src_shape, m, k);
  ::npukb_softmax::FillRows(m, k, out_type_size, row_work_bytes, local_work_space_size, t);
}
}  // namespace npukb_softmax

// ---- SoftMax / SimpleSoftMax ----------------------------------------------------------------------
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_lib::SoftMaxMaxTmpBytes(npukb_softmax::RowsM(srcShape), npukb_softmax::RowsK(srcShape), dataTypeSize);
}

inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_lib::SoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxTiling) {
  npukb_softmax::FillFor(srcShape, dataTypeSize, npukb_lib::SoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize),
                         localWorkSpaceSize, softmaxTiling);
}

inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              AscendC::tiling::SoftMaxTiling& softmaxTiling) {
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxTiling};
  npukb_softmax::FillFor(srcShape, dataTypeSize, npukb_lib::SoftMaxMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize),
                         localWorkSpaceSize, adapter);
}

// ---- SoftmaxFlash (deprecated by the docs) --------------------------------------------------------
inline uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_softmax::RowsM(srcShape) * npukb_lib::SoftMaxFlashMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isUpdate);
}

inline uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isUpdate,
                                          const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_lib::SoftMaxFlashMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isUpdate);
}

inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                   optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate = false) {
  npukb_softmax::FillFor(srcShape, dataTypeSize,
                         npukb_lib::SoftMaxFlashMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isUpdate),
                         localWorkSpaceSize, softmaxFlashTiling);
}

inline void SoftMaxFlashTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                   AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate = false) {
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxFlashTiling};
  npukb_softmax::FillFor(srcShape, dataTypeSize,
                         npukb_lib::SoftMaxFlashMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isUpdate),
                         localWorkSpaceSize, adapter);
}

// ---- SoftmaxFlashV2 -------------------------------------------------------------------------------
// dataTypeSize1 is the source's element size, dataTypeSize2 the max / sum tensors'. isBasicBlock changes
// how the device schedules the work, not the sizes; isFlashOutputBrc (the [m, 1] outputs) makes the
// tiling's outMaxK 1.
inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)dataTypeSize2;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  return npukb_lib::SoftMaxFlashV2MinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize1, isUpdate);
}

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                            const bool isUpdate, const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)dataTypeSize2;
  (void)isBasicBlock;
  (void)isFlashOutputBrc;
  return npukb_softmax::RowsM(srcShape) *
         npukb_lib::SoftMaxFlashV2MinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize1, isUpdate);
}

namespace npukb_softmax {
template <typename Tiling>
void FillFlashV2(const ge::Shape& src_shape, uint32_t data_type_size1, uint32_t data_type_size2, uint32_t local_work_space_size,
                 bool is_update, bool is_flash_output_brc, Tiling& t) {
  FillFor(src_shape, is_flash_output_brc ? 1u : data_type_size2,
          npukb_lib::SoftMaxFlashV2MinTmpBytes(RowsK(src_shape), data_type_size1, is_update), local_work_space_size, t);
  if (is_flash_output_brc) {
    t.set_outMaxK(1);
    t.set_outMaxSize(RowsM(src_shape));
  }
}
}  // namespace npukb_softmax

inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)isBasicBlock;
  npukb_softmax::FillFlashV2(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isUpdate, isFlashOutputBrc,
                             softmaxFlashTiling);
}

inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
  (void)isBasicBlock;
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxFlashTiling};
  npukb_softmax::FillFlashV2(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, isUpdate, isFlashOutputBrc, adapter);
}

// ---- SoftmaxFlashV3 (half source, float statistics) -----------------------------------------------
inline void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                           uint32_t& maxValue, uint32_t& minValue, const bool isUpdate,
                                           const bool isBasicBlock = false) {
  (void)dataTypeSize1;
  (void)dataTypeSize2;
  (void)isBasicBlock;
  minValue = npukb_lib::SoftMaxFlashV3MinTmpBytes(npukb_softmax::RowsK(srcShape), isUpdate);
  maxValue = npukb_softmax::RowsM(srcShape) * minValue;
}

inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashV3Tiling,
                                     const bool isUpdate, const bool isBasicBlock = false) {
  (void)dataTypeSize1;
  (void)isBasicBlock;
  npukb_softmax::FillFor(srcShape, dataTypeSize2, npukb_lib::SoftMaxFlashV3MinTmpBytes(npukb_softmax::RowsK(srcShape), isUpdate),
                         localWorkSpaceSize, softmaxFlashV3Tiling);
}

inline void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling,
                                     const bool isUpdate, const bool isBasicBlock = false) {
  (void)dataTypeSize1;
  (void)isBasicBlock;
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxFlashV3Tiling};
  npukb_softmax::FillFor(srcShape, dataTypeSize2, npukb_lib::SoftMaxFlashV3MinTmpBytes(npukb_softmax::RowsK(srcShape), isUpdate),
                         localWorkSpaceSize, adapter);
}

// ---- SoftmaxGrad / SoftmaxGradFront ----------------------------------------------------------------
inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_softmax::RowsM(srcShape) * npukb_lib::SoftMaxGradMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isFront);
}

inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isReuseSource;
  return npukb_lib::SoftMaxGradMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isFront);
}

inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
  npukb_softmax::FillFor(srcShape, dataTypeSize,
                         npukb_lib::SoftMaxGradMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isFront),
                         localWorkSpaceSize, softmaxGradTiling);
}

inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                                  AscendC::tiling::SoftMaxTiling& softmaxGradTiling, const bool isFront = false) {
  ::npukb_softmax::PlainSoftMaxTiling adapter{softmaxGradTiling};
  npukb_softmax::FillFor(srcShape, dataTypeSize,
                         npukb_lib::SoftMaxGradMinTmpBytes(npukb_softmax::RowsK(srcShape), dataTypeSize, isFront),
                         localWorkSpaceSize, adapter);
}

// ---- IsBasicBlockInSoftMax ------------------------------------------------------------------------
inline bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
  return ::npukb_softmax::BasicBlockRows(tiling.get_srcK(), tiling.get_splitM(), tiling.get_tailM(), dataTypeSize);
}

inline bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize = 2) {
  return ::npukb_softmax::BasicBlockRows(tiling.srcK, tiling.splitM, tiling.tailM, dataTypeSize);
}

}  // namespace AscendC
