// npukb_sim/lib_tiling_fields.h -- the field lists of the sort and tensor-transform tiling structures
// (TopkTiling, PadTiling, UnPadTiling, ConfusionTransposeTiling): one list per structure, from which the
// kernel-side plain structs (npukb_sim/lib_tiling_structs.h, via kernel_tiling/kernel_tiling.h), the
// host-side optiling tiling-data classes (lib/sort/topk_tiling.h, lib/pad/pad_tiling.h,
// lib/transpose/confusion_transpose_tiling.h) and the copies between them are generated, so that their
// byte layouts cannot drift apart. Part of the ascendc-sim clean-room simulator.
//
// TopkTiling has the documented fields, in the documented order and types. The fields of PadTiling,
// UnPadTiling and ConfusionTransposeTiling are not documented ("pass it to the kernel API"): these are
// the simulator's own, the shape the host tiling function was given and how it split the rows.
#pragma once

#include "npukb_sim/norm_tiling_fields.h"   // NPUKB_PLAIN_TILING_FIELD and the copy macros

#define NPUKB_TOPK_TILING_FIELDS(F)                                                                     \
  F(int32_t, tmpLocalSize) F(int32_t, allDataSize) F(int32_t, innerDataSize) F(uint32_t, sortRepeat)    \
  F(int32_t, mrgSortRepeat) F(int32_t, kAlignFourBytes) F(int32_t, kAlignTwoBytes) F(int32_t, maskOffset) \
  F(int32_t, maskVreducev2FourBytes) F(int32_t, maskVreducev2TwoBytes) F(int32_t, mrgSortSrc1offset)    \
  F(int32_t, mrgSortSrc2offset) F(int32_t, mrgSortSrc3offset) F(int32_t, mrgSortTwoQueueSrc1Offset)     \
  F(int32_t, mrgFourQueueTailPara1) F(int32_t, mrgFourQueueTailPara2) F(int32_t, srcIndexOffset)        \
  F(uint32_t, copyUbToUbBlockCount) F(int32_t, topkMrgSrc1MaskSizeOffset) F(int32_t, topkNSmallSrcIndexOffset) \
  F(uint32_t, vreduceValMask0) F(uint32_t, vreduceValMask1) F(uint32_t, vreduceIdxMask0)                \
  F(uint32_t, vreduceIdxMask1) F(uint16_t, vreducehalfValMask0) F(uint16_t, vreducehalfValMask1)        \
  F(uint16_t, vreducehalfValMask2) F(uint16_t, vreducehalfValMask3) F(uint16_t, vreducehalfValMask4)    \
  F(uint16_t, vreducehalfValMask5) F(uint16_t, vreducehalfValMask6) F(uint16_t, vreducehalfValMask7)

// Pad: srcShape [srcHeight, srcWidth] (valid and redundant columns), oriSrcShape's width srcOriWidth,
// the 32-byte aligned width of the result, the work buffer it was planned for and the rows per pass.
#define NPUKB_PAD_TILING_FIELDS(F)                                                                      \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, srcOriWidth) F(uint32_t, dstWidth)           \
  F(uint32_t, tmpBufferSize) F(uint32_t, rowsPerLoop) F(uint32_t, loopCount) F(uint32_t, tailRows)

// UnPad: srcShape [srcHeight, srcWidth], the work buffer it was planned for and the rows per pass.
#define NPUKB_UNPAD_TILING_FIELDS(F)                                                                    \
  F(uint32_t, srcHeight) F(uint32_t, srcWidth) F(uint32_t, tmpBufferSize) F(uint32_t, rowsPerLoop)      \
  F(uint32_t, loopCount) F(uint32_t, tailRows)

// Transpose (ConfusionTranspose): the scenario, srcShape ([B, N, S, H/N] or [H, W]) and the work
// buffer it was planned for.
#define NPUKB_CONFUSION_TRANSPOSE_TILING_FIELDS(F)                                                      \
  F(uint32_t, transposeType) F(uint32_t, shapeDimNum) F(uint32_t, srcDim0) F(uint32_t, srcDim1)         \
  F(uint32_t, srcDim2) F(uint32_t, srcDim3) F(uint32_t, typeSize) F(uint32_t, tmpBufferSize)
