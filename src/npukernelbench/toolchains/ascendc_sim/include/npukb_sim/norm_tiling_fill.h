// npukb_sim/norm_tiling_fill.h -- how the normalization host tiling functions fill the documented
// tiling structures: the shape fields the kernel APIs read, and a split of the rows (groups, feature
// columns) into passes that fit the work buffer by the figures of npukb_sim/norm_tmp_sizes.h. Part of
// the ascendc-sim clean-room simulator; used by lib/normalization/*_tiling.h.
//
// The split fields are the simulator's own (the real ones are not public): rows per pass = what the
// work buffer holds, loopRound full passes and a tail; *Pos / *Size fields place the work rows one
// after the other in fp32 elements. The kernel APIs read only the shape fields and tmpBufSize (the
// buffer the tiling was planned for); the computation does not depend on the split. A work buffer
// below the minimum gives a tiling with no rows per pass, which the kernel APIs refuse.
#pragma once
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_norm {

using npukb_lib::AlignUp;
using npukb_lib::Fp32Row;

// A split of `rows` rows into passes of `per_pass` rows.
struct Passes {
  uint32_t per_pass = 0;
  uint32_t loops = 0;
  uint32_t tail = 0;
};
inline Passes SplitRows(uint32_t rows, uint32_t per_pass) {
  Passes p;
  p.per_pass = per_pass;
  p.loops = per_pass == 0 ? 0 : rows / per_pass;
  p.tail = per_pass == 0 ? rows : rows % per_pass;
  return p;
}

// LayerNormTiling, and DeepNormTiling (the same fields).
template <typename Tiling>
inline void FillLayerNorm(uint32_t b, uint32_t s, uint32_t h, uint32_t origin_h, uint32_t stack_bytes,
                          uint32_t type_size, bool reuse, Tiling& t) {
  t = Tiling{};
  const uint32_t rows = b * s;
  const uint32_t nbuf = npukb_lib::LayerNormWorkRows(type_size, reuse);
  const Passes p = SplitRows(rows, npukb_lib::RowsPerPass(stack_bytes, 0, npukb_lib::LayerNormRowBytes(h, type_size, reuse), rows));
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = origin_h;
  t.inputXSize = rows * h;
  t.meanVarSize = rows;
  t.numberOfTmpBuf = nbuf;
  t.oneTmpSize = p.per_pass * Fp32Row(h) / 4;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = t.oneTmpSize;
  t.thirdTmpStartPos = nbuf > 2 ? 2 * t.oneTmpSize : 0;
  t.meanTmpTensorPos = nbuf * t.oneTmpSize;
  t.meanTmpTensorSize = AlignUp(p.per_pass, 8);
  t.varianceTmpTensorPos = t.meanTmpTensorPos + t.meanTmpTensorSize;
  t.varianceTmpTensorSize = t.meanTmpTensorSize;
  t.tmpBufSize = stack_bytes / 4;
  t.loopRound = p.loops;
  t.inputRoundSize = p.per_pass * h;
  t.inputTailSize = p.tail * h;
  t.inputTailPos = p.loops * p.per_pass * h;
  t.meanVarRoundSize = p.per_pass;
  t.meanVarTailSize = p.tail;
  t.meanVarTailPos = p.loops * p.per_pass;
  t.bshCurLength = p.per_pass * h;
  t.bsCurLength = p.per_pass;
  t.lastDimValueBack = origin_h == 0 ? 0.0f : 1.0f / static_cast<float>(origin_h);
}

inline void FillLayerNormSeparate(uint32_t a, uint32_t r, uint32_t stack_bytes, uint32_t type_size,
                                  LayerNormSeparateTiling& t) {
  t = LayerNormSeparateTiling{};
  const uint32_t nbuf = type_size < 4 ? 3 : 2;
  const Passes p = SplitRows(a, npukb_lib::RowsPerPass(stack_bytes, 0, npukb_lib::LayerNormRstdRowBytes(r, type_size), a));
  uint32_t head = 1;
  while (head * 2 <= r) head *= 2;   // the power-of-two head of the binary sum
  t.aLength = a;
  t.rLength = r;
  t.rHeadLength = r == 0 ? 0 : head;
  t.halfAddRepeatTimes = r == 0 ? 0 : (head * 4 + 255) / 256;
  t.k2Rec = r == 0 ? 0.0f : 1.0f / static_cast<float>(head);
  t.k2RRec = r == 0 ? 0.0f : static_cast<float>(head) / static_cast<float>(r);
  t.inputXSize = a * r;
  t.meanVarSize = a;
  t.numberOfTmpBuf = nbuf;
  t.oneTmpSize = p.per_pass * Fp32Row(r) / 4;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = t.oneTmpSize;
  t.thirdTmpStartPos = nbuf > 2 ? 2 * t.oneTmpSize : 0;
  t.varianceTmpTensorPos = nbuf * t.oneTmpSize;
  t.varianceTmpTensorSize = AlignUp(p.per_pass, 8);
  t.tmpBufSize = stack_bytes / 4;
  t.loopRound = p.loops;
  t.inputRoundSize = p.per_pass * r;
  t.inputTailSize = p.tail * r;
  t.inputTailPos = p.loops * p.per_pass * r;
  t.meanVarRoundSize = p.per_pass;
  t.meanVarTailSize = p.tail;
  t.meanVarTailPos = p.loops * p.per_pass;
  t.arCurLength = p.per_pass * r;
  t.aCurLength = p.per_pass;
  t.rValueBack = r == 0 ? 0.0f : 1.0f / static_cast<float>(r);
}

inline uint32_t FloatBits(float f) {
  uint32_t u = 0;
  __builtin_memcpy(&u, &f, 4);
  return u;
}

// stack_elems: the documented unit of LayerNormGrad's stackBufferSize (elements of type_size bytes).
inline void FillLayerNormGrad(uint32_t b, uint32_t s, uint32_t h, uint32_t origin_h, uint32_t stack_elems,
                              uint32_t type_size, bool reuse, LayerNormGradTiling& t) {
  t = LayerNormGradTiling{};
  const uint32_t rows = b * s;
  const Passes p = SplitRows(rows, npukb_lib::RowsPerPass(stack_elems * type_size, 0,
                                                          npukb_lib::LayerNormGradRowBytes(h, type_size, reuse), rows));
  const uint32_t row = p.per_pass * Fp32Row(h) / 4, blk = AlignUp(p.per_pass, 8);
  t.stackBufferSize = stack_elems;
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = origin_h;
  t.oneCalSize = p.per_pass * h;
  t.nohCalSize = p.per_pass;
  t.loopNum = p.loops;
  t.tailSize = p.tail * h;
  t.nohTailSize = p.tail;
  uint32_t at = 0;
  const auto place = [&at](uint32_t& pos, uint32_t& size, uint32_t n) { pos = at; size = n; at += n; };
  place(t.tmpTensorBSHPos, t.tmpTensorBSHSize, row);
  place(t.pdVarTensorPos, t.pdVarTensorSize, blk);
  place(t.pdMeanTensorPos, t.pdMeanTensorSize, blk);
  place(t.x1TensorPos, t.x1TensorSize, row);
  place(t.x2TensorPos, t.x2TensorSize, row);
  place(t.x3TensorPos, t.x3TensorSize, row);
  place(t.tmpTensorPos, t.tmpTensorSize, blk);
  place(t.tmpTensor1Pos, t.tmpTensor1Size, type_size < 4 ? row : 0);
  place(t.tmpTensor2Pos, t.tmpTensor2Size, type_size < 4 ? row : 0);
  t.lastDimValueBack = FloatBits(origin_h == 0 ? 0.0f : 1.0f / static_cast<float>(origin_h));
  t.lastDimValueBackMulTwo = FloatBits(origin_h == 0 ? 0.0f : 2.0f / static_cast<float>(origin_h));
}

inline void FillLayerNormGradBeta(uint32_t b, uint32_t s, uint32_t h, uint32_t origin_h, uint32_t stack_elems,
                                  uint32_t type_size, LayerNormGradBetaTiling& t) {
  t = LayerNormGradBetaTiling{};
  const uint32_t rows = b * s;
  const Passes p = SplitRows(rows, npukb_lib::RowsPerPass(stack_elems * type_size, npukb_lib::LayerNormGradBetaFixedBytes(h),
                                                          npukb_lib::LayerNormGradBetaRowBytes(h, type_size), rows));
  const uint32_t row = Fp32Row(h) / 4;
  t.stackBufferSize = stack_elems;
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = origin_h;
  t.bshLength = rows * h;
  t.bsLength = rows;
  t.oneCalSize = p.per_pass * h;
  t.numberOfTmpBuf = type_size < 4 ? 4 : 3;
  t.loopRound = p.loops;
  t.inputTailSize = p.tail * h;
  t.inputTailPos = p.loops * p.per_pass * h;
  t.bsTailSize = p.tail;
  t.bshCurLength = p.per_pass * h;
  t.bsCurLength = p.per_pass;
  t.gammaTempTensorPos = 0;
  t.betaTempTensorPos = row;
  t.inputDyTmpTensorPos = 2 * row;
  t.resForGammaTmpTensorPos = type_size < 4 ? 2 * row + p.per_pass * row : 0;
}

inline void FillRmsNorm(uint32_t b, uint32_t s, uint32_t h, uint32_t origin_h, uint32_t stack_bytes, uint32_t type_size,
                        RmsNormTiling& t) {
  t = RmsNormTiling{};
  const uint32_t rows = b * s;
  const Passes p = SplitRows(rows, npukb_lib::RowsPerPass(stack_bytes, 0, npukb_lib::RmsNormRowBytes(h, type_size), rows));
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = origin_h;
  t.reciprocalOfHLength = origin_h == 0 ? 0.0f : 1.0f / static_cast<float>(origin_h);
  t.mainBshLength = p.per_pass * h;
  t.mainBsLength = p.per_pass;
  t.mainBsLengthAlign = AlignUp(p.per_pass, 8);
  t.loopRound = p.loops;
  t.inputTailPos = p.loops * p.per_pass * h;
  t.tailBshLength = p.tail * h;
  t.tailBsLength = p.tail;
}

// b: the stored batch rows (the layout), origin_b: the valid ones; sh = S * H feature columns.
inline void FillBatchNorm(uint32_t b, uint32_t origin_b, uint32_t sh, uint32_t stack_bytes, uint32_t type_size,
                          BatchNormTiling& t) {
  t = BatchNormTiling{};
  const uint32_t unit = npukb_lib::BatchNormMinColumns(sh, type_size);
  const uint32_t fit = npukb_lib::BatchNormColumnBytes(b) == 0 ? 0 : stack_bytes / npukb_lib::BatchNormColumnBytes(b);
  uint32_t cols = unit == 0 ? 0 : fit / unit * unit;   // whole 32-byte blocks of source columns
  if (cols > sh) cols = sh;
  t.originalBLength = origin_b;
  t.meanVarSize = sh;
  t.tmpBufSize = stack_bytes / 4;
  t.oneTmpSize = b * cols;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = t.oneTmpSize;
  t.thirdTmpStartPos = 2 * t.oneTmpSize;
  t.meanTmpTensorPos = 3 * t.oneTmpSize;
  t.varianceTmpTensorPos = t.meanTmpTensorPos + cols;
  t.loopRound = cols == 0 ? 0 : sh / cols;
  const uint32_t tail = cols == 0 ? sh : sh % cols;
  t.inputTailSize = b * tail;
  t.inputTailPos = t.loopRound * cols;
  t.meanVarTailSize = tail;
  t.meanVarTailPos = t.loopRound * cols;
  t.bshCurLength = b * cols;
  t.shCurLength = cols;
  t.firstDimValueBack = origin_b == 0 ? 0.0f : 1.0f / static_cast<float>(origin_b);
  t.castHalfRepStride = cols * type_size / 32;
  t.shCurLengthBlockNum = cols * 4 / 32;
  t.castHalfOutRepStride = cols * type_size / 32;
}

inline void FillGroupNorm(uint32_t n, uint32_t c, uint32_t hw, uint32_t g, uint32_t stack_bytes, uint32_t type_size,
                          GroupNormTiling& t) {
  t = GroupNormTiling{};
  const uint32_t d = g == 0 ? 0 : c / g;
  const uint32_t groups = n * g;
  const Passes p = SplitRows(groups, npukb_lib::RowsPerPass(stack_bytes, 0, npukb_lib::GroupNormGroupBytes(d, hw), groups));
  const uint32_t per_blk = type_size == 0 ? 1 : 32 / type_size;
  t.n = n;
  t.c = c;
  t.hw = hw;
  t.g = g;
  t.d = d;
  t.hwAlignSize = AlignUp(hw, per_blk);
  t.dhwAlignSize = AlignUp(d * hw, per_blk);
  t.inputXSize = n * c * hw;
  t.meanVarSize = groups;
  t.numberOfTmpBuf = 3;
  t.oneTmpSize = p.per_pass * Fp32Row(d * hw) / 4;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = t.oneTmpSize;
  t.thirdTmpStartPos = 2 * t.oneTmpSize;
  t.meanTmpTensorPos = 3 * t.oneTmpSize;
  t.meanTmpTensorSize = AlignUp(p.per_pass, 8);
  t.varianceTmpTensorPos = t.meanTmpTensorPos + t.meanTmpTensorSize;
  t.varianceTmpTensorSize = t.meanTmpTensorSize;
  t.tmpBufSize = stack_bytes / 4;
  t.loopRound = p.loops;
  t.inputRoundSize = p.per_pass * d * hw;
  t.inputTailSize = p.tail * d * hw;
  t.inputTailPos = p.loops * p.per_pass * d * hw;
  t.meanVarRoundSize = p.per_pass;
  t.meanVarTailSize = p.tail;
  t.meanVarTailPos = p.loops * p.per_pass;
  t.bshCurLength = p.per_pass * d * hw;
  t.bsCurLength = p.per_pass;
  t.factor = d * hw == 0 ? 0.0f : 1.0f / static_cast<float>(d * hw);
  t.smallShape = hw * type_size < 32;
}

}  // namespace npukb_norm
