// npukb_sim/transform_tmp_sizes.h -- the simulator's temporary-buffer sizes of the index, data-filter
// and tensor-transform families (Arange, Select, DropOut, Broadcast, Pad, UnPad, Transpose, TransData):
// what their host helpers report and what the kernel APIs check a sharedTmpBuffer against. Part of the
// ascendc-sim clean-room simulator; included by npukb_sim/lib_tmp_sizes.h.
//
// The real formulas are not public; these follow the instruction sequences of each page's 实现原理.
// docs/simulator.md lists them.
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_lib {

// Arange: no temporary buffer (documented: max = min = 0).
constexpr uint32_t ArangeTmpBytes() { return 0; }

// Select (bytes mask): per row, the mask row converted to half and its compare bit mask; when the mask
// rows are longer than the data rows, the mask gathered to [rows, srcLastAxis] first (in place when the
// mask may be modified). The minimum holds one row, the maximum every row.
constexpr uint32_t SelectRowBytes(uint32_t src_last) {
  return AlignUp(src_last * 2, kBlockBytes) + AlignUp((src_last + 7) / 8, kBlockBytes);
}
constexpr uint32_t SelectGatherBytes(uint32_t first, uint32_t src_last, uint32_t mask_last, uint32_t mask_type_size,
                                     bool is_reuse_mask) {
  return (mask_last != src_last && !is_reuse_mask) ? AlignUp(first * src_last * mask_type_size, kBlockBytes) : 0;
}
constexpr uint32_t SelectMinTmpBytes(uint32_t first, uint32_t src_last, uint32_t mask_last, uint32_t mask_type_size,
                                     bool is_reuse_mask) {
  return SelectGatherBytes(first, src_last, mask_last, mask_type_size, is_reuse_mask) + SelectRowBytes(src_last);
}
constexpr uint32_t SelectMaxTmpBytes(uint32_t first, uint32_t src_last, uint32_t mask_last, uint32_t mask_type_size,
                                     bool is_reuse_mask) {
  return SelectGatherBytes(first, src_last, mask_last, mask_type_size, is_reuse_mask) +
         (first == 0 ? 1 : first) * SelectRowBytes(src_last);
}

// DropOut: per row, the selected row before the division by keepProb and the row's cleaned mask bits.
constexpr uint32_t DropOutRowBytes(uint32_t src_last, uint32_t type_size) {
  return AlignUp(src_last * type_size, kBlockBytes) + AlignUp((src_last + 7) / 8, kBlockBytes);
}

// Broadcast: [m, 1] -> [m, k] (dim 2, axis 1) broadcasts each element to a 32-byte block (brcb, 8 rows
// per repeat) and, when k is not 32-byte aligned, gathers the [m, k] result from [m, k aligned]; 8-bit
// data go through half. [1, k] -> [m, k] and [1] -> [n] only copy: no buffer.
constexpr uint32_t BroadcastRowBytes(uint32_t k, uint32_t type_size) {
  return kBlockBytes + ((k * type_size) % kBlockBytes != 0 ? AlignUp(k * type_size, kBlockBytes) : 0);
}
constexpr uint32_t BroadcastTmpBytes(uint32_t rows, uint32_t k, uint32_t type_size, bool needs_brcb, bool max) {
  return needs_brcb ? (max ? rows : (rows < 8 ? rows : 8)) * BroadcastRowBytes(k, type_size * (type_size == 1 ? 2 : 1))
                    : 0;
}

// Pad of an [h, w] tensor whose width is not 32-byte aligned: TransDataTo5HD passes over 16 rows at a
// time of the aligned width. An aligned width (padding of redundant columns) needs no buffer.
constexpr uint32_t PadAlignedWidth(uint32_t w, uint32_t type_size) { return AlignUp(w * type_size, kBlockBytes) / type_size; }
constexpr uint32_t PadTmpBytes(uint32_t h, uint32_t w, uint32_t type_size, bool max) {
  return (w * type_size) % kBlockBytes == 0 ? 0
                                            : (max ? AlignUp(h, 16) : 16) * PadAlignedWidth(w, type_size) * type_size;
}
// UnPad of an [h, w] tensor (w 32-byte aligned): the same 16-row passes over the source width.
constexpr uint32_t UnPadTmpBytes(uint32_t h, uint32_t w, uint32_t type_size, bool max) {
  return (max ? AlignUp(h, 16) : 16) * w * type_size;
}

// Transpose (ConfusionTranspose) of [B, N, S, H/N]: the 16 x 16 squares of one column of S (scenarios 1
// and 2 one region, scenarios 3 to 6 two); the two-dimensional transpose (scenario 7) works in place
// through TransDataTo5HD. The maximum equals the minimum.
constexpr uint32_t TransposeTmpBytes(uint32_t type, uint32_t s, uint32_t type_size) {
  return (type >= 1 && type <= 6) ? (type <= 2 ? 1 : 2) * AlignUp(s, 16) * 16 * type_size : 0;
}

// TransData: the padded intermediate of the destination layout (C and, for FRACTAL_Z_3D, N rounded up
// to 16; the merged H * W axis to 16 elements). The maximum equals the minimum.
constexpr uint32_t TransDataTmpBytes(uint32_t n, uint32_t c, uint32_t d, uint32_t hw, uint32_t type_size,
                                     bool fractal_z) {
  return (fractal_z ? AlignUp(n, 16) : n) * AlignUp(c, 16) * d * AlignUp(hw, 16) * type_size;
}

}  // namespace npukb_lib
