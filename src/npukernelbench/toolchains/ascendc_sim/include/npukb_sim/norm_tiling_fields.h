// npukb_sim/norm_tiling_fields.h -- the field lists of the normalization tiling structures, in the
// documented order and types: one list per structure, from which the kernel-side plain structs
// (kernel_tiling/kernel_tiling.h), the host-side optiling tiling-data classes
// (lib/normalization/*_tiling.h) and the copy between them are generated, so that their byte layouts
// cannot drift apart. Part of the ascendc-sim clean-room simulator.
//
// Each list applies F(type, name) to every field. LayerNormTiling's kernel-side struct predates these
// lists and is written out in kernel_tiling/kernel_tiling.h; its list here must stay in step with it
// (the host tests compare every field after a round trip through the kernel).
#pragma once

#define NPUKB_LAYER_NORM_TILING_FIELDS(F)                                                               \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength)           \
  F(uint32_t, inputXSize) F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf)                          \
  F(uint32_t, meanTmpTensorPos) F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos)        \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize)                    \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos)            \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos) \
  F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) F(uint32_t, meanVarTailPos)                \
  F(uint32_t, bshCurLength) F(uint32_t, bsCurLength) F(float, lastDimValueBack)

#define NPUKB_LAYER_NORM_SEPARATE_TILING_FIELDS(F)                                                      \
  F(uint32_t, aLength) F(uint32_t, rLength) F(uint32_t, halfAddRepeatTimes) F(uint32_t, rHeadLength)    \
  F(float, k2Rec) F(float, k2RRec) F(uint32_t, inputXSize) F(uint32_t, meanVarSize)                     \
  F(uint32_t, numberOfTmpBuf) F(uint32_t, varianceTmpTensorPos) F(uint32_t, varianceTmpTensorSize)      \
  F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize) F(uint32_t, firstTmpStartPos)                         \
  F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos) F(uint32_t, loopRound)                   \
  F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos)                      \
  F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) F(uint32_t, meanVarTailPos)                \
  F(uint32_t, arCurLength) F(uint32_t, aCurLength) F(float, rValueBack)

#define NPUKB_LAYER_NORM_GRAD_TILING_FIELDS(F)                                                          \
  F(uint32_t, stackBufferSize) F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength)           \
  F(uint32_t, originalHLength) F(uint32_t, oneCalSize) F(uint32_t, nohCalSize) F(uint32_t, loopNum)     \
  F(uint32_t, tailSize) F(uint32_t, nohTailSize) F(uint32_t, tmpTensorBSHPos) F(uint32_t, tmpTensorBSHSize) \
  F(uint32_t, pdVarTensorPos) F(uint32_t, pdVarTensorSize) F(uint32_t, pdMeanTensorPos)                 \
  F(uint32_t, pdMeanTensorSize) F(uint32_t, x1TensorPos) F(uint32_t, x1TensorSize) F(uint32_t, x2TensorPos) \
  F(uint32_t, x2TensorSize) F(uint32_t, x3TensorPos) F(uint32_t, x3TensorSize) F(uint32_t, tmpTensorPos) \
  F(uint32_t, tmpTensorSize) F(uint32_t, tmpTensor1Pos) F(uint32_t, tmpTensor1Size)                     \
  F(uint32_t, tmpTensor2Pos) F(uint32_t, tmpTensor2Size) F(uint32_t, lastDimValueBack)                  \
  F(uint32_t, lastDimValueBackMulTwo)

#define NPUKB_LAYER_NORM_GRAD_BETA_TILING_FIELDS(F)                                                     \
  F(uint32_t, stackBufferSize) F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength)           \
  F(uint32_t, originalHLength) F(uint32_t, bshLength) F(uint32_t, bsLength) F(uint32_t, oneCalSize)     \
  F(uint32_t, numberOfTmpBuf) F(uint32_t, loopRound) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos) \
  F(uint32_t, bsTailSize) F(uint32_t, bshCurLength) F(uint32_t, bsCurLength) F(uint32_t, gammaTempTensorPos) \
  F(uint32_t, betaTempTensorPos) F(uint32_t, inputDyTmpTensorPos) F(uint32_t, resForGammaTmpTensorPos)  \
  F(uint32_t, reserved)

#define NPUKB_RMS_NORM_TILING_FIELDS(F)                                                                 \
  F(uint32_t, bLength) F(uint32_t, sLength) F(uint32_t, hLength) F(uint32_t, originalHLength)           \
  F(float, reciprocalOfHLength) F(uint32_t, mainBshLength) F(uint32_t, mainBsLength)                    \
  F(uint32_t, mainBsLengthAlign) F(uint32_t, loopRound) F(uint32_t, inputTailPos) F(uint32_t, tailBshLength) \
  F(uint32_t, tailBsLength)

#define NPUKB_BATCH_NORM_TILING_FIELDS(F)                                                               \
  F(uint32_t, originalBLength) F(uint32_t, meanVarSize) F(uint32_t, meanTmpTensorPos)                   \
  F(uint32_t, varianceTmpTensorPos) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize)                     \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos)            \
  F(uint32_t, loopRound) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos) F(uint32_t, meanVarTailSize) \
  F(uint32_t, meanVarTailPos) F(uint32_t, bshCurLength) F(uint32_t, shCurLength) F(float, firstDimValueBack) \
  F(uint32_t, castHalfRepStride) F(uint32_t, shCurLengthBlockNum) F(uint32_t, castHalfOutRepStride)

#define NPUKB_DEEP_NORM_TILING_FIELDS(F) NPUKB_LAYER_NORM_TILING_FIELDS(F)

#define NPUKB_GROUP_NORM_TILING_FIELDS(F)                                                               \
  F(uint32_t, n) F(uint32_t, c) F(uint32_t, hw) F(uint32_t, g) F(uint32_t, d) F(uint32_t, hwAlignSize)  \
  F(uint32_t, dhwAlignSize) F(uint32_t, inputXSize) F(uint32_t, meanVarSize) F(uint32_t, numberOfTmpBuf) \
  F(uint32_t, meanTmpTensorPos) F(uint32_t, meanTmpTensorSize) F(uint32_t, varianceTmpTensorPos)        \
  F(uint32_t, varianceTmpTensorSize) F(uint32_t, tmpBufSize) F(uint32_t, oneTmpSize)                    \
  F(uint32_t, firstTmpStartPos) F(uint32_t, secondTmpStartPos) F(uint32_t, thirdTmpStartPos)            \
  F(uint32_t, loopRound) F(uint32_t, inputRoundSize) F(uint32_t, inputTailSize) F(uint32_t, inputTailPos) \
  F(uint32_t, meanVarRoundSize) F(uint32_t, meanVarTailSize) F(uint32_t, meanVarTailPos)                \
  F(uint32_t, bshCurLength) F(uint32_t, bsCurLength) F(float, factor) F(bool, smallShape)

// A plain struct member with the documented zero initialiser.
#define NPUKB_PLAIN_TILING_FIELD(type, name) type name = 0;
// A host tiling-data field (register/tilingdata_base.h).
#define NPUKB_TILING_DATA_FIELD(type, name) TILING_DATA_FIELD_DEF(type, name);
// Copies of every field between a plain struct and a tiling-data class.
#define NPUKB_TILING_TO_CLASS(type, name) dst.set_##name(src.name);
#define NPUKB_TILING_FROM_CLASS(type, name) dst.name = src.get_##name();
