// npukb_sim/conv_bp_input_tiling_structs.h -- kernel-side plain structs of the Conv3DBackpropInput tiling
// data (TConv3DBackpropInputTiling and Conv3DBackpropInputTilingData, whose conv3DDxTiling the kernel's
// Init takes), fields in the documented order with natural alignment: the byte layout of the host
// TILING_DATA classes in lib/conv_backprop/conv3d_bp_input_tiling.h. Included by
// kernel_tiling/kernel_tiling.h. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

struct TConv3DBackpropInputTiling {
  uint32_t batch;
  uint32_t cin;
  uint32_t cout;
  uint32_t cout1;
  uint32_t cin1;
  uint32_t cout1G;
  uint32_t cin1G;
  uint32_t c0;
  uint32_t c0Bits;
  uint32_t dout;
  uint32_t ho;
  uint32_t wo;
  uint32_t di;
  uint32_t hi;
  uint32_t wi;
  uint32_t dk;
  uint32_t hk;
  uint32_t wk;
  uint32_t group;
  uint32_t strideD;
  uint32_t strideH;
  uint32_t strideW;
  uint32_t padFront;
  uint32_t padBack;
  uint32_t padUp;
  uint32_t padDown;
  uint32_t padLeft;
  uint32_t padRight;
  int32_t backpropPadTail;
  int32_t backpropPadUp;
  int32_t backpropPadDown;
  int32_t backpropPadLeft;
  int32_t backpropPadRight;
  uint32_t dilationD;
  uint32_t dilationH;
  uint32_t dilationW;
  uint32_t al0Pbuffer;
  uint32_t bl0Pbuffer;
  uint32_t cl0Pbuffer;
  uint32_t al1Pbuffer;
  uint32_t bl1Pbuffer;
  uint32_t singleCoreGroup;
  uint32_t singleCoreCout;
  uint32_t singleCoreCout1;
  uint32_t singleCoreCin1;
  uint32_t singleCoreDin;
  uint32_t singleCoreHo;
  uint32_t baseM;
  uint32_t baseK;
  uint32_t baseN;
  uint32_t baseD;
  uint32_t baseBatch;
  uint32_t baseGroup;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t stepKa;
  uint32_t stepKb;
  uint32_t stepBatch;
  uint32_t stepGroup;
  uint32_t iterateOrder;
  uint32_t hf32Flag;
  uint32_t initOutputFlag;
  uint32_t reserved;
  uint32_t singleCoreBatch;
  uint64_t singleCoreM;
  uint32_t singleCoreCin;
};

struct Conv3DBackpropInputTilingData {
  TConv3DBackpropInputTiling conv3DDxTiling;
};

namespace AscendC {
namespace tiling {
using ::Conv3DBackpropInputTilingData;
using ::TConv3DBackpropInputTiling;
}  // namespace tiling
}  // namespace AscendC
