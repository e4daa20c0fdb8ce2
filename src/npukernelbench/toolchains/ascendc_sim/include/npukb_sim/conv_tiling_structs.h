// npukb_sim/conv_tiling_structs.h -- kernel-side plain structs of the convolution tiling data
// (TConv3DApiTiling), fields in the documented order with natural alignment: the byte layout of the
// host TILING_DATA class optiling::TConv3DApiTiling (lib/conv/conv3d/conv3d_tiling.h). Included by
// kernel_tiling/kernel_tiling.h. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

struct TConv3DApiTiling {
  uint32_t groups;
  uint64_t singleCoreDo;
  uint32_t singleCoreCo;
  uint64_t singleCoreM;
  uint64_t orgDo;
  uint32_t orgCo;
  uint64_t orgHo;
  uint64_t orgWo;
  uint32_t orgCi;
  uint64_t orgDi;
  uint64_t orgHi;
  uint64_t orgWi;
  uint32_t kernelD;
  uint32_t kernelH;
  uint32_t kernelW;
  uint32_t strideD;
  uint32_t strideH;
  uint32_t strideW;
  uint32_t dilationD;
  uint32_t dilationH;
  uint32_t dilationW;
  uint32_t padHead;
  uint32_t padTail;
  uint32_t padUp;
  uint32_t padDown;
  uint32_t padLeft;
  uint32_t padRight;
  uint32_t mL0;
  uint32_t kL0;
  uint32_t nL0;
  uint32_t kAL1;
  uint32_t kBL1;
  uint32_t nBL1;
  uint32_t mAL1;
  uint8_t al1FullLoad;
  uint8_t bl1FullLoad;
  uint8_t iterateMNOrder;
  uint8_t biasFullLoadFlag;
};

namespace AscendC {
namespace tiling {
using ::TConv3DApiTiling;
}  // namespace tiling
}  // namespace AscendC
