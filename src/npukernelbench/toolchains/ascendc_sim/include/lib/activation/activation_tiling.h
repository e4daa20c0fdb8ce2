// lib/activation/activation_tiling.h -- host helpers of the elementwise activation kernel APIs (激活函数):
// the temporary-space sizes of Gelu / FasterGelu / FasterGeluV2 (GetGeluMaxTmpSize, GetGeluMinTmpSize,
// GetGeluMaxMinTmpSize), Sigmoid, Silu, Swish, GeGLU, ReGlu and SwiGLU, and the maxLiveNodeCount /
// extraBuf factors of GeGLU and SwiGLU, with the documented signatures. The figures are the simulator's
// own (npukb_sim/lib_tmp_sizes.h), the same the kernel APIs check a sharedTmpBuffer against. Part of the
// ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/math/math_tiling.h"
#include "npukb_sim/lib_tmp_sizes.h"

namespace AscendC {

inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  return npukb_lib::ElemMaxTmpBytes(npukb_lib::GeluTmpFactor(typeSize, false), npukb_math::Elements(srcShape), typeSize);
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  return npukb_lib::ElemMinTmpBytes(npukb_lib::GeluTmpFactor(typeSize, false), npukb_math::Elements(srcShape), typeSize);
}
inline void GetGeluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  npukb_math::MaxMin(npukb_lib::GeluTmpFactor(typeSize, false), npukb_math::Elements(srcShape), typeSize, maxValue, minValue);
}

inline void GetSigmoidMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, bool isReuseSource, uint32_t& maxValue,
                                    uint32_t& minValue) {
  npukb_math::MaxMin(npukb_lib::SigmoidTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}

inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                           uint32_t& minValue) {
  npukb_math::MaxMin(npukb_lib::SiluTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}

inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                            uint32_t& minValue) {
  npukb_math::MaxMin(npukb_lib::SwishTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}

inline void GetGeGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  npukb_math::MaxMin(npukb_lib::GeGLUTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}
inline void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  npukb_math::Factor(npukb_lib::GeGLUTmpFactor(typeSize, false), maxLiveNodeCount, extraBuf);
}

inline void GetReGluMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  npukb_math::MaxMin(npukb_lib::ReGluTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}

inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue,
                                   const bool isReuseSource) {
  npukb_math::MaxMin(npukb_lib::SwiGLUTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}
inline void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  npukb_math::Factor(npukb_lib::SwiGLUTmpFactor(typeSize, false), maxLiveNodeCount, extraBuffer);
}

}  // namespace AscendC
