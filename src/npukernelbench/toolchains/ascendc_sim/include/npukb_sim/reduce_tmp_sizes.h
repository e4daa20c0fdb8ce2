// npukb_sim/reduce_tmp_sizes.h -- the simulator's temporary-buffer sizes of the reduction family (Sum,
// Mean's factor form, ReduceXorSum and the pattern reductions ReduceSum / Mean / Max / Min / Any / All /
// Prod): what the host Get*MaxMinTmpSize / Get*TmpBufferFactorSize helpers report and what the kernel
// APIs check a sharedTmpBuffer against. Part of the ascendc-sim clean-room simulator; included by
// npukb_sim/lib_tmp_sizes.h. Mean's own size is MeanTmpBytes in lib_tmp_sizes.h.
//
// The real formulas are not public; these follow the computations: a tree reduction works in a copy of
// the data (unless the source may be reused), 16-bit sums of Mean in fp32. docs/simulator.md lists them.
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_lib {

// Sum over rows of n elements: one work row of the source type (the pairwise tree halves it in place).
constexpr uint32_t SumTmpBytes(uint32_t n, uint32_t type_size) { return AlignUp(n * type_size, kBlockBytes); }

// Mean's factor form: the work holds maxLiveNodeCount source-sized values per element. A 16-bit source
// may be accumulated in fp32 (accType float): a converted row and an fp32 work row, 8 bytes per element.
constexpr uint32_t MeanLiveNodes(uint32_t type_size) { return type_size < kFloatBytes ? 2 * kFloatBytes / type_size : 1; }

// ReduceXorSum over n int16_t: the xor row (unless the sources may be overwritten) and its fp32 copy
// for the sum. The maximum equals the minimum.
constexpr uint32_t ReduceXorSumTmpBytes(uint32_t n, bool is_reuse_source) {
  return (is_reuse_source ? 0 : AlignUp(n * 2, kBlockBytes)) + AlignUp(n * kFloatBytes, kBlockBytes);
}

// The pattern reductions over a 2-D source [d0, d1] whose rows are padded to 32 bytes: a copy of the
// source for the tree (unless the source may be reused; 8-bit data are widened to half, which always
// needs the copy) and one block-aligned row of results. AR reduces d1 (d0 results), RA d0 (d1 results).
// The maximum equals the minimum, as documented.
constexpr uint32_t ReduceWorkSize(uint32_t type_size) { return type_size == 1 ? 2 : type_size; }
constexpr uint32_t ReduceRowStride(uint32_t d1, uint32_t type_size) {
  return AlignUp(d1 * type_size, kBlockBytes) / type_size;
}
constexpr uint32_t ReducePatternTmpBytes(uint32_t d0, uint32_t d1, uint32_t type_size, bool is_ar,
                                         bool is_reuse_source) {
  return ((is_reuse_source && type_size != 1) ? 0
                                               : AlignUp(d0 * ReduceRowStride(d1, type_size) * ReduceWorkSize(type_size),
                                                         kBlockBytes)) +
         AlignUp((is_ar ? d0 : d1) * ReduceWorkSize(type_size), kBlockBytes);
}

}  // namespace npukb_lib
