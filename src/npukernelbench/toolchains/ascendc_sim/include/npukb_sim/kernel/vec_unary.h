// npukb_sim/kernel/vec_unary.h -- unary vector APIs (Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu, Not),
// count form and mask/repeat form. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- unary -------------------------------------------------------------------------------------
#define NPUKB_UNARY(NAME, COST, EXPR, ...)                                                                          \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t& calCount) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_count(#NAME, dst, src, calCount, COST, [](T a) -> T { return static_cast<T>(EXPR); }, file, line);  \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],                \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;           \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_mask(#NAME, dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstBlkStride,              \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                    \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask,                        \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;           \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_mask(#NAME, dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstBlkStride,        \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                    \
  }                                                                                                                 \
  template <typename T, NPUKB_PTR_RET>                                                                              \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t& calCount) {     \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T>(dst, src, calCount);                                                                     \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],         \
                          const std::uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, mask, repeatTimes, repeatParams);                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask,                 \
                          const std::uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, mask, repeatTimes, repeatParams);                                   \
  }

NPUKB_UNARY(Exp, kCostTrans, __builtin_expf(sim::tofl(a)), half, float)
NPUKB_UNARY(Ln, kCostTrans, __builtin_logf(sim::tofl(a)), half, float)
NPUKB_UNARY(Abs, kCostSimple, __builtin_fabsf(sim::tofl(a)), half, float)
NPUKB_UNARY(Sqrt, kCostTrans, __builtin_sqrtf(sim::tofl(a)), half, float)
NPUKB_UNARY(Rsqrt, kCostTrans, 1.0f / __builtin_sqrtf(sim::tofl(a)), half, float)
NPUKB_UNARY(Reciprocal, kCostTrans, 1.0f / sim::tofl(a), half, float)
NPUKB_UNARY(Relu, kCostSimple, (a > 0 ? a : 0), half, float, std::int32_t)
NPUKB_UNARY(Not, kCostSimple, ~a, std::int16_t, std::uint16_t)

}  // namespace AscendC
