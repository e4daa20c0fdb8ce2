// kernel_tiling/kernel_tiling.h -- kernel-side plain structs of the AscendC library tiling data
// (byte layout = the host-side TILING_DATA classes of tiling/tiling_api.h, fields in declaration order,
// natural alignment). Usable on host and kernel side. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

struct TCubeTiling {
  int32_t usedCoreNum;
  int32_t M;
  int32_t N;
  int32_t Ka;
  int32_t Kb;
  int32_t singleCoreM;
  int32_t singleCoreN;
  int32_t singleCoreK;
  int32_t baseM;
  int32_t baseN;
  int32_t baseK;
  int32_t depthA1;
  int32_t depthB1;
  int32_t stepM;
  int32_t stepN;
  int32_t isBias;
  int32_t transLength;
  int32_t iterateOrder;
  int32_t shareMode;
  int32_t shareL1Size;
  int32_t shareL0CSize;
  int32_t shareUbSize;
  int32_t batchM;
  int32_t batchN;
  int32_t singleBatchM;
  int32_t singleBatchN;
  int32_t stepKa;
  int32_t stepKb;
  int32_t depthAL1CacheUB;
  int32_t depthBL1CacheUB;
  int32_t dbL0A;
  int32_t dbL0B;
  int32_t dbL0C;
  int32_t ALayoutInfoB;
  int32_t ALayoutInfoS;
  int32_t ALayoutInfoN;
  int32_t ALayoutInfoG;
  int32_t ALayoutInfoD;
  int32_t BLayoutInfoB;
  int32_t BLayoutInfoS;
  int32_t BLayoutInfoN;
  int32_t BLayoutInfoG;
  int32_t BLayoutInfoD;
  int32_t CLayoutInfoB;
  int32_t CLayoutInfoS1;
  int32_t CLayoutInfoN;
  int32_t CLayoutInfoG;
  int32_t CLayoutInfoS2;
  int32_t BatchNum;
  int32_t reserved;
};

struct SoftMaxTiling {
  uint32_t srcM;
  uint32_t srcK;
  uint32_t srcSize;
  uint32_t outMaxM;
  uint32_t outMaxK;
  uint32_t outMaxSize;
  uint32_t splitM;
  uint32_t splitK;
  uint32_t splitSize;
  uint32_t reduceM;
  uint32_t reduceK;
  uint32_t reduceSize;
  uint32_t rangeM;
  uint32_t tailM;
  uint32_t tailSplitSize;
  uint32_t tailReduceSize;
};

struct LayerNormTiling {
  uint32_t bLength;
  uint32_t sLength;
  uint32_t hLength;
  uint32_t originalHLength;
  uint32_t inputXSize;
  uint32_t meanVarSize;
  uint32_t numberOfTmpBuf;
  uint32_t meanTmpTensorPos;
  uint32_t meanTmpTensorSize;
  uint32_t varianceTmpTensorPos;
  uint32_t varianceTmpTensorSize;
  uint32_t tmpBufSize;
  uint32_t oneTmpSize;
  uint32_t firstTmpStartPos;
  uint32_t secondTmpStartPos;
  uint32_t thirdTmpStartPos;
  uint32_t loopRound;
  uint32_t inputRoundSize;
  uint32_t inputTailSize;
  uint32_t inputTailPos;
  uint32_t meanVarRoundSize;
  uint32_t meanVarTailSize;
  uint32_t meanVarTailPos;
  uint32_t bshCurLength;
  uint32_t bsCurLength;
  float lastDimValueBack;
};

namespace AscendC {
namespace tiling {
using ::LayerNormTiling;
using ::SoftMaxTiling;
using ::TCubeTiling;
}  // namespace tiling
}  // namespace AscendC

// The other normalization tilings (LayerNormSeparateTiling, LayerNormGradTiling, RmsNormTiling, ...).
#include "npukb_sim/norm_tiling_structs.h"
// LogSoftMax's tiling: the fields of SoftMaxTiling (rows of the source, rows per pass of the work
// buffer; npukb_sim/softmax_split.h).
struct LogSoftMaxTiling {
  uint32_t srcM;
  uint32_t srcK;
  uint32_t srcSize;
  uint32_t outMaxM;
  uint32_t outMaxK;
  uint32_t outMaxSize;
  uint32_t splitM;
  uint32_t splitK;
  uint32_t splitSize;
  uint32_t reduceM;
  uint32_t reduceK;
  uint32_t reduceSize;
  uint32_t rangeM;
  uint32_t tailM;
  uint32_t tailSplitSize;
  uint32_t tailReduceSize;
};

namespace AscendC {
namespace tiling {
using ::LogSoftMaxTiling;
}  // namespace tiling
}  // namespace AscendC

// The sort and tensor-transform tilings (TopkTiling, PadTiling, UnPadTiling, ConfusionTransposeTiling).
#include "npukb_sim/lib_tiling_structs.h"

// The convolution tilings (TConv3DApiTiling).
#include "npukb_sim/conv_tiling_structs.h"
// The Conv3DBackpropFilter tilings (TConv3DBpFilterTiling, Conv3DBackpropFilterTilingData).
#include "npukb_sim/conv_bp_filter_tiling_structs.h"
// The Conv3DBackpropInput tiling (TConv3DBackpropInputTiling, Conv3DBackpropInputTilingData).
#include "npukb_sim/conv_bp_input_tiling_structs.h"
