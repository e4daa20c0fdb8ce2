// npukb_sim/sort_tmp_sizes.h -- the simulator's temporary-buffer sizes of the sort family (Concat,
// Sort, TopK): what GetConcatTmpSize, GetSortTmpSize, GetSortMaxMinTmpSize and GetTopKMaxMinTmpSize
// report and what the kernel APIs check a work buffer against. Part of the ascendc-sim clean-room
// simulator; included by npukb_sim/lib_tmp_sizes.h.
//
// The real formulas are not public. These follow the instruction sequences the API pages describe on
// the Atlas A2 / A3 series: sorted data are (score, index) pairs of 8 bytes; Sort32 sorts 32 of them
// per repeat and the 4-way MrgSort passes ping-pong between two regions of the same size.
// docs/simulator.md lists them.
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_lib {

constexpr uint32_t kSortPairBytes = 8;     // one (score, index) pair, whatever the score type
constexpr uint32_t kSortRepeatElems = 32;  // Sort32: 32 pairs per repeat

// Sorted data of n elements, in bytes (GetSortLen / GetSortOffset count the same in elements of T).
constexpr uint32_t SortPairsBytes(uint32_t n) { return n * kSortPairBytes; }

// Concat on the A2 / A3 layout copies the scores (Sort takes them as they are): no work buffer.
constexpr uint32_t ConcatTmpBytes(uint32_t /*elem_count*/, uint32_t /*type_size*/) { return 0; }

// Sort<T, isFullSort>: the merge passes of a full sort ping-pong between dst and a buffer of the
// sorted data's size (n rounded up to whole Sort32 repeats).
constexpr uint32_t SortTmpBytes(uint32_t elem_count) {
  return SortPairsBytes(AlignUp(elem_count, kSortRepeatElems));
}

// Sort with a SortConfig (Ascend 950 only, host figure): a copy of the values and of the indices, in
// pairs for MERGE_SORT; a radix pass adds a 256-bucket histogram of 4-byte counters. 0 for the
// combination the page rules out (source indices without destination indices).
constexpr uint32_t SortConfigTmpBytes(uint32_t n, uint32_t value_size, uint32_t index_size, bool merge,
                                      bool has_src_index, bool has_dst_index) {
  return (has_src_index && !has_dst_index)
             ? 0
             : (merge ? 2 * SortPairsBytes(AlignUp(n, kSortRepeatElems))
                      : 2 * AlignUp(n * (value_size + index_size), kBlockBytes) + 256 * 4);
}

// TopK, normal mode: per row the two merge regions of inner pairs, plus the negated copy of the row
// when the k smallest are asked for; the generated indices [0, inner) once when none are passed in.
// The minimum holds one row, the maximum every row.
constexpr uint32_t TopKRowBytes(uint32_t inner, bool is_largest, uint32_t type_size) {
  return 2 * SortPairsBytes(inner) + (is_largest ? 0 : AlignUp(inner * type_size, kBlockBytes));
}
constexpr uint32_t TopKIndexBytes(uint32_t inner, bool is_init_index) { return is_init_index ? 0 : inner * 4; }
// TopK, small mode (inner = 32): every row at once (one Sort32 repeat each), and the generated
// indices copied to every row; the minimum equals the maximum.
constexpr uint32_t TopKSmallBytes(uint32_t outter, bool is_init_index, bool is_largest, uint32_t type_size) {
  return outter * TopKRowBytes(kSortRepeatElems, is_largest, type_size) +
         (is_init_index ? 0 : outter * kSortRepeatElems * 4);
}
constexpr uint32_t TopKMinTmpBytes(uint32_t inner, uint32_t outter, bool is_init_index, bool small, bool is_largest,
                                   uint32_t type_size) {
  return small ? TopKSmallBytes(outter, is_init_index, is_largest, type_size)
               : TopKRowBytes(inner, is_largest, type_size) + TopKIndexBytes(inner, is_init_index);
}
constexpr uint32_t TopKMaxTmpBytes(uint32_t inner, uint32_t outter, bool is_init_index, bool small, bool is_largest,
                                   uint32_t type_size) {
  return small ? TopKSmallBytes(outter, is_init_index, is_largest, type_size)
               : outter * TopKRowBytes(inner, is_largest, type_size) + TopKIndexBytes(inner, is_init_index);
}

}  // namespace npukb_lib
