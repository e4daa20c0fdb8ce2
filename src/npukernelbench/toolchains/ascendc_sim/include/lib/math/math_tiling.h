// lib/math/math_tiling.h -- host helpers of the high-level math kernel APIs (数学计算): for each API its
// Get<Api>MaxMinTmpSize (the temporary space a call on srcShape needs at least / can use at most) and
// Get<Api>TmpBufferFactorSize (maxLiveNodeCount and extraBuf: tmp bytes = maxLiveNodeCount * the bytes of
// the elements computed at once + extraBuf), with the documented signatures. The figures are the
// simulator's own (npukb_sim/lib_tmp_sizes.h), the same the kernel APIs check a sharedTmpBuffer against.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "npukb_sim/lib_math_configs.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

namespace npukb_math {
inline uint64_t Elements(const ge::Shape& shape) {
  uint64_t n = 1;
  for (size_t i = 0; i < shape.GetDimNum(); ++i) n *= static_cast<uint64_t>(shape.GetDim(i));
  return n;
}
inline void MaxMin(npukb_lib::TmpFactor f, uint64_t n, uint32_t type_size, uint32_t& max_value, uint32_t& min_value) {
  min_value = npukb_lib::ElemMinTmpBytes(f, n, type_size);
  max_value = npukb_lib::ElemMaxTmpBytes(f, n, type_size);
}
inline void Factor(npukb_lib::TmpFactor f, uint32_t& max_live_node_count, uint32_t& extra_buf) {
  max_live_node_count = f.maxLiveNodeCount;
  extra_buf = f.extraBuf;
}
}  // namespace npukb_math

#define NPUKB_MATH_HOST_HELPERS(NAME)                                                                                    \
  inline void Get##NAME##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,     \
                                       uint32_t& maxValue, uint32_t& minValue) {                                        \
    npukb_math::MaxMin(npukb_lib::NAME##TmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize,    \
                       maxValue, minValue);                                                                             \
  }                                                                                                                     \
  inline void Get##NAME##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) { \
    npukb_math::Factor(npukb_lib::NAME##TmpFactor(typeSize, false), maxLiveNodeCount, extraBuf);                        \
  }

NPUKB_MATH_HOST_HELPERS(Acos)
NPUKB_MATH_HOST_HELPERS(Acosh)
NPUKB_MATH_HOST_HELPERS(Asin)
NPUKB_MATH_HOST_HELPERS(Asinh)
NPUKB_MATH_HOST_HELPERS(Atan)
NPUKB_MATH_HOST_HELPERS(Atanh)
NPUKB_MATH_HOST_HELPERS(Axpy)
NPUKB_MATH_HOST_HELPERS(Ceil)
NPUKB_MATH_HOST_HELPERS(Clamp)
NPUKB_MATH_HOST_HELPERS(Cos)
NPUKB_MATH_HOST_HELPERS(Cosh)
NPUKB_MATH_HOST_HELPERS(Digamma)
NPUKB_MATH_HOST_HELPERS(Erf)
NPUKB_MATH_HOST_HELPERS(Erfc)
NPUKB_MATH_HOST_HELPERS(Floor)
NPUKB_MATH_HOST_HELPERS(Fmod)
NPUKB_MATH_HOST_HELPERS(Frac)
NPUKB_MATH_HOST_HELPERS(Lgamma)
NPUKB_MATH_HOST_HELPERS(Log)
NPUKB_MATH_HOST_HELPERS(Log2)
NPUKB_MATH_HOST_HELPERS(Log10)
NPUKB_MATH_HOST_HELPERS(Sign)
NPUKB_MATH_HOST_HELPERS(Sin)
NPUKB_MATH_HOST_HELPERS(Sinh)
NPUKB_MATH_HOST_HELPERS(Tan)
NPUKB_MATH_HOST_HELPERS(Tanh)
NPUKB_MATH_HOST_HELPERS(Trunc)
NPUKB_MATH_HOST_HELPERS(Xor)
#undef NPUKB_MATH_HOST_HELPERS

// Sin and Cos also take their kernel config (the algorithm is reserved on A2 / A3: same figures).
inline void GetSinMaxMinTmpSize(const SinConfig& config, const ge::Shape& srcShape, const uint32_t typeSize,
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)config;
  GetSinMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetSinTmpBufferFactorSize(const SinConfig& config, const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                      uint32_t& extraBuf) {
  (void)config;
  GetSinTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}
inline void GetCosMaxMinTmpSize(const CosConfig& config, const ge::Shape& srcShape, const uint32_t typeSize,
                                const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)config;
  GetCosMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue);
}
inline void GetCosTmpBufferFactorSize(const CosConfig& config, const uint32_t typeSize, uint32_t& maxLiveNodeCount,
                                      uint32_t& extraBuf) {
  (void)config;
  GetCosTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf);
}

// Round's helpers take the platform first.
inline void GetRoundMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  npukb_math::MaxMin(npukb_lib::RoundTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
}
inline void GetRoundTmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const uint32_t typeSize,
                                        uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  (void)ascendcPlatform;
  npukb_math::Factor(npukb_lib::RoundTmpFactor(typeSize, false), maxLiveNodeCount, extraBuf);
}

// Exp (the high-level one) reports whether it could compute the sizes.
inline bool GetExpMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                uint32_t& minValue) {
  if (typeSize != 2 && typeSize != 4) return false;
  npukb_math::MaxMin(npukb_lib::ExpTmpFactor(typeSize, isReuseSource), npukb_math::Elements(srcShape), typeSize, maxValue,
                     minValue);
  return true;
}
inline void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  npukb_math::Factor(npukb_lib::ExpTmpFactor(typeSize, false), maxLiveNodeCount, extraBuffer);
}

// Power: the shapes of base and exponent (a scalar operand has shape {1}), int32_t or floating.
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  const uint64_t n1 = npukb_math::Elements(srcShape1), n2 = npukb_math::Elements(srcShape2);
  const bool base_tensor = n1 > 1 || n2 <= 1, exp_tensor = n2 > 1 || n1 <= 1;
  npukb_math::MaxMin(npukb_lib::PowerTmpFactor(base_tensor, exp_tensor, typeIsInt, typeSize), n1 > n2 ? n1 : n2, typeSize,
                     maxValue, minValue);
}
inline void GetPowerTmpBufferFactorSize(const bool baseIsTensor, const bool expIsTensor, const bool typeIsInt,
                                        const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  npukb_math::Factor(npukb_lib::PowerTmpFactor(baseIsTensor, expIsTensor, typeIsInt, typeSize), maxLiveNodeCount, extraBuffer);
}

// CumSum over srcShape [outter, inner] (leading dims folded into outter).
inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isLastAxis,
                                   const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  const size_t dims = srcShape.GetDimNum();
  const uint32_t inner = dims > 0 ? static_cast<uint32_t>(srcShape.GetDim(dims - 1)) : 1;
  const uint32_t outter = inner == 0 ? 0 : static_cast<uint32_t>(npukb_math::Elements(srcShape) / inner);
  minValue = npukb_lib::CumSumMinTmpBytes(inner, typeSize, isLastAxis);
  maxValue = npukb_lib::CumSumMaxTmpBytes(outter, inner, typeSize, isLastAxis);
}

}  // namespace AscendC
