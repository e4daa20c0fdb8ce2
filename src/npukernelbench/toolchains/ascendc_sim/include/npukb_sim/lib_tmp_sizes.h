// npukb_sim/lib_tmp_sizes.h -- the simulator's temporary-buffer sizes of the AscendC library APIs
// (what the host Get*TmpSize helpers report and what the kernel-side APIs may check against), in
// one place so that host and kernel agree. Part of the ascendc-sim clean-room simulator.
//
// These are the simulator's own figures, documented in docs/simulator.md: the real library's
// internal formulas are not public. They follow the structure of the computation (fp32 work rows
// plus one 32-byte reduction block per row).
#pragma once
#include <cstdint>

namespace npukb_lib {

constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kFloatBytes = 4;
constexpr uint32_t kReduceBlockElems = kBlockBytes / kFloatBytes;   // one fp32 block per row

constexpr uint32_t AlignUp(uint32_t value, uint32_t unit) { return (value + unit - 1) / unit * unit; }

// SoftMax / SimpleSoftMax over rows of k elements: per row, k fp32 work elements (plus k more to
// hold the fp32 copy of a 16-bit source) and one fp32 reduction block.
constexpr uint32_t SoftMaxRowWorkElems(uint32_t k, uint32_t data_type_size) {
  return (data_type_size < kFloatBytes ? 2 * k : k) + kReduceBlockElems;
}
constexpr uint32_t SoftMaxMinTmpBytes(uint32_t k, uint32_t data_type_size) {
  return SoftMaxRowWorkElems(k, data_type_size) * kFloatBytes;
}
constexpr uint32_t SoftMaxMaxTmpBytes(uint32_t m, uint32_t k, uint32_t data_type_size) {
  return m * SoftMaxRowWorkElems(k, data_type_size) * kFloatBytes;
}

// SoftmaxFlashV2 over rows of k elements: SoftMax's work per row, plus (isUpdate) two fp32 blocks
// for the incoming max and sum.
constexpr uint32_t SoftMaxFlashV2MinTmpBytes(uint32_t k, uint32_t data_type_size, bool is_update) {
  return (SoftMaxRowWorkElems(k, data_type_size) + (is_update ? 2 * kReduceBlockElems : 0)) * kFloatBytes;
}

// Mean over rows of n elements accumulated in acc_type_size bytes: one accumulation row, plus the
// converted row when the source type differs from the accumulation type.
constexpr uint32_t MeanTmpBytes(uint32_t n, uint32_t src_type_size, uint32_t acc_type_size) {
  return AlignUp(n * acc_type_size, kBlockBytes) * (src_type_size != acc_type_size ? 2 : 1);
}

}  // namespace npukb_lib

// The normalization and quantization families keep their figures in their own headers.
#include "npukb_sim/norm_tmp_sizes.h"
#include "npukb_sim/quant_tmp_sizes.h"
// The sort, reduction, index / filter / transform families: npukb_sim/{sort,reduce,transform}_tmp_sizes.h.
#include "npukb_sim/sort_tmp_sizes.h"
#include "npukb_sim/reduce_tmp_sizes.h"
#include "npukb_sim/transform_tmp_sizes.h"
