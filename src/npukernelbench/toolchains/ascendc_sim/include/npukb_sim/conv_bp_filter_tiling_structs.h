// npukb_sim/conv_bp_filter_tiling_structs.h -- kernel-side plain structs of the Conv3DBackpropFilter
// tiling data (TConv3DBpFilterTiling, fields in the documented order with natural alignment, and
// Conv3DBackpropFilterTilingData holding it as dwTiling): the byte layout of the host TILING_DATA classes
// of lib/conv_backprop/conv3d_bp_filter_tiling.h. Included by kernel_tiling/kernel_tiling.h. Clean-room
// part of ascendc-sim.
#pragma once
#include <cstdint>

struct TConv3DBpFilterTiling {
  uint32_t batch;
  uint32_t cin;
  uint32_t cout;
  uint32_t cin1G;
  uint32_t cout1G;
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
  uint32_t dilationD;
  uint32_t dilationH;
  uint32_t dilationW;
  uint32_t channelSize;
  uint32_t al0Pbuffer;
  uint32_t bl0Pbuffer;
  uint32_t cl0Pbuffer;
  uint32_t al1Pbuffer;
  uint32_t bl1Pbuffer;
  uint32_t baseM;
  uint32_t baseK;
  uint32_t baseN;
  uint32_t m0;
  uint32_t k0;
  uint32_t n0;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t stepKa;
  uint32_t stepKb;
  uint32_t iterateOrder;
  uint64_t bl1Bound;
  uint32_t hf32Flag;
  uint32_t singleCoreDK;
  uint32_t singleCoreGroup;
  uint32_t singleCoreCout;
  uint32_t singleCoreHo;
  uint64_t singleCoreBatch;
  uint32_t singleCoreCin;
  uint64_t totalL1Size;
  uint64_t singleCoreM;
  uint64_t singleCoreN;
  uint64_t singleCoreK;
};

struct Conv3DBackpropFilterTilingData {
  TConv3DBpFilterTiling dwTiling;
};

namespace AscendC {
namespace tiling {
using ::TConv3DBpFilterTiling;
using ::Conv3DBackpropFilterTilingData;
}  // namespace tiling
}  // namespace AscendC
