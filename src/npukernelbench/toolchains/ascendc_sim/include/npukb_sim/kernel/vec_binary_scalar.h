// npukb_sim/kernel/vec_binary_scalar.h -- tensor-op-scalar vector APIs (Adds, Muls, Maxs, Mins,
// LeakyRelu, ShiftLeft, ShiftRight), count form and mask/repeat form. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- tensor op scalar --------------------------------------------------------------------------
#define NPUKB_SCALAR(NAME, COST, EXPR, ...)                                                                         \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,                      \
                   const std::int32_t& calCount) { NPUKB_CALLER;                                                \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    const T s = scalarValue;                                                                                        \
    sim::unary_count(#NAME, dst, src, calCount, COST, [s](T a) -> T { return static_cast<T>(EXPR); }, file, line); \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,                      \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    const T s = scalarValue;                                                                                        \
    sim::unary_mask(#NAME, dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstBlkStride,              \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [s](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, std::uint64_t mask,  \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;           \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    const T s = scalarValue;                                                                                        \
    sim::unary_mask(#NAME, dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstBlkStride,        \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [s](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                   \
  }                                                                                                                 \
  template <typename T, NPUKB_PTR_RET>                                                                              \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          const std::int32_t& calCount) {                                                           \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T>(dst, src, scalarValue, calCount);                                                        \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          const std::uint64_t mask[], const std::uint8_t repeatTimes,                               \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTimes, repeatParams);                      \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          std::uint64_t mask, const std::uint8_t repeatTimes,                                       \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTimes, repeatParams);                      \
  }

NPUKB_SCALAR(Adds, kCostSimple, a + s, half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Muls, kCostSimple, a * s, half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Maxs, kCostSimple, (a > s ? a : s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Mins, kCostSimple, (a < s ? a : s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(LeakyRelu, kCostSimple, (a >= 0 ? a : a * s), half, float)
NPUKB_SCALAR(ShiftLeft, kCostSimple, (a << s), std::int16_t, std::uint16_t, std::int32_t, std::uint32_t)
NPUKB_SCALAR(ShiftRight, kCostSimple, (a >> s), std::int16_t, std::uint16_t, std::int32_t, std::uint32_t)

}  // namespace AscendC
