// npukb_sim/softmax_split.h -- how the SoftMax-family tilings split an [m, k] source into passes of
// rows that fit the work buffer; shared by the host TilingFuncs (lib/activation/softmax_tiling.h)
// and the kernel-side SoftMaxFlashV2TilingFuncImpl (npukb_sim/kernel/lib_softmax.h), so that both
// give the same fields. Part of the ascendc-sim clean-room simulator.
//
// The fields:
//   srcM/srcK/srcSize       m, k, m*k
//   outMaxM/outMaxK/...     m rows of one 32-byte block of the max/sum dtype (32 / dataTypeSize)
//   splitM/splitK/...       rows per pass that fit the work buffer (row_work_bytes each), k
//   reduceM/reduceK/...     splitM rows of one fp32 block (8)
//   rangeM/tailM/...        full passes m / splitM, remaining rows m % splitM and their sizes
// splitM is 0 when the work buffer holds less than one row (the kernel APIs then refuse a sharedTmpBuffer
// that small).
#pragma once
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_softmax {

template <typename Tiling>
void FillRows(uint32_t m, uint32_t k, uint32_t out_type_size, uint32_t row_work_bytes, uint32_t work_bytes, Tiling& t) {
  uint32_t out_k = out_type_size == 0 ? 0 : npukb_lib::kBlockBytes / out_type_size;
  uint32_t split_m = row_work_bytes == 0 ? 0 : work_bytes / row_work_bytes;
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

// Adapter giving a plain kernel-side struct of these fields (SoftMaxTiling, LogSoftMaxTiling) the setters
// of the tiling class.
template <typename Plain>
struct PlainRowsTiling {
  Plain& s;
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
using PlainSoftMaxTiling = PlainRowsTiling<SoftMaxTiling>;

// A basic block (the docs' isBasicBlock condition) on the rows of a tiling: 256 / dataTypeSize <= srcK
// <= 2048, srcK % 64 == 0, and every pass (splitM rows, the tail tailM rows) a multiple of 8 rows.
inline bool BasicBlockRows(uint32_t k, uint32_t split_m, uint32_t tail_m, uint32_t data_type_size) {
  return data_type_size != 0 && k >= 256 / data_type_size && k <= 2048 && k % 64 == 0 && split_m > 0 && split_m % 8 == 0 &&
         tail_m % 8 == 0;
}

}  // namespace npukb_softmax
