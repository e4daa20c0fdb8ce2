// lib/activation/softmax_tiling.h -- host helpers of the SoftMax / SimpleSoftMax kernel APIs:
// temporary-buffer sizes and SoftMaxTilingFunc. Part of the ascendc-sim clean-room simulator.
//
// The source is seen as rows: k = last dim, m = product of the other dims. The fields:
//   srcM/srcK/srcSize       m, k, m*k
//   outMaxM/outMaxK/...     m rows of one 32-byte block of the max/sum dtype (32 / dataTypeSize)
//   splitM/splitK/...       rows per pass that fit localWorkSpaceSize (npukb_sim/lib_tmp_sizes.h), k
//   reduceM/reduceK/...     splitM rows of one fp32 block (8)
//   rangeM/tailM/...        full passes m / splitM, remaining rows m % splitM and their sizes
// splitM is 0 when localWorkSpaceSize is below GetSoftMaxMinTmpSize (the kernel API then refuses).
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/activation/softmax_tilingdata.h"
#include "npukb_sim/lib_tmp_sizes.h"

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
  uint32_t out_k = data_type_size == 0 ? 0 : npukb_lib::kBlockBytes / data_type_size;
  uint32_t row_bytes = npukb_lib::SoftMaxMinTmpBytes(k, data_type_size);
  uint32_t split_m = row_bytes == 0 ? 0 : local_work_space_size / row_bytes;
  if (split_m > m) split_m = m;
  t.set_srcM(m);
  t.set_srcK(k);
  t.set_srcSize(m * k);
  t.set_outMaxM(m);
  t.set_outMaxK(out_k);
  t.set_outMaxSize(m * out_k);
  t.set_splitM(split_m);
  t.set_splitK(k);
  t.set_splitSize(split_m * k);
  t.set_reduceM(split_m);
  t.set_reduceK(npukb_lib::kReduceBlockElems);
  t.set_reduceSize(split_m * npukb_lib::kReduceBlockElems);
  uint32_t range = split_m == 0 ? 0 : m / split_m;
  uint32_t tail = split_m == 0 ? m : m % split_m;
  t.set_rangeM(range);
  t.set_tailM(tail);
  t.set_tailSplitSize(tail * k);
  t.set_tailReduceSize(tail * npukb_lib::kReduceBlockElems);
}

// Adapter giving the plain kernel-side struct the setters of the tiling class.
struct PlainSoftMaxTiling {
  SoftMaxTiling& s;
  void set_srcM(uint32_t v) { s.srcM = v; }
  void set_srcK(uint32_t v) { s.srcK = v; }
  void set_srcSize(uint32_t v) { s.srcSize = v; }
  void set_outMaxM(uint32_t v) { s.outMaxM = v; }
  void set_outMaxK(uint32_t v) { s.outMaxK = v; }
  void set_outMaxSize(uint32_t v) { s.outMaxSize = v; }
  void set_splitM(uint32_t v) { s.splitM = v; }
  void set_splitK(uint32_t v) { s.splitK = v; }
  void set_splitSize(uint32_t v) { s.splitSize = v; }
  void set_reduceM(uint32_t v) { s.reduceM = v; }
  void set_reduceK(uint32_t v) { s.reduceK = v; }
  void set_reduceSize(uint32_t v) { s.reduceSize = v; }
  void set_rangeM(uint32_t v) { s.rangeM = v; }
  void set_tailM(uint32_t v) { s.tailM = v; }
  void set_tailSplitSize(uint32_t v) { s.tailSplitSize = v; }
  void set_tailReduceSize(uint32_t v) { s.tailReduceSize = v; }
};
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
  npukb_softmax::PlainSoftMaxTiling adapter{softmaxTiling};
  npukb_softmax::Fill(srcShape, dataTypeSize, localWorkSpaceSize, adapter);
}

}  // namespace AscendC
