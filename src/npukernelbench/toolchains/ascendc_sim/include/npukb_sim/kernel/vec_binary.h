// npukb_sim/kernel/vec_binary.h -- binary vector APIs (Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu,
// SubRelu), count form and mask/repeat form; signatures and dtype sets follow the public API for
// Atlas A2 (910B). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- binary ------------------------------------------------------------------------------------
#define NPUKB_BINARY(NAME, COST, EXPR, ...)                                                                        \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::int32_t& calCount) { NPUKB_CALLER;                                                \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_count(#NAME, dst, src0, src1, calCount, COST, [](T a, T b) -> T { return static_cast<T>(EXPR); }, \
                      file, line);                                                                                  \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_mask(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTimes.value, repeatParams, COST,            \
                     [](T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_mask(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTimes.value, repeatParams, COST,      \
                     [](T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                              \
  }                                                                                                                 \
  template <typename T, NPUKB_PTR_RET>                                                                              \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          const std::int32_t& calCount) {                                                           \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T>(dst, src0, src1, calCount);                                                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          const std::uint64_t mask[], const std::uint8_t repeatTimes,                               \
                          const BinaryRepeatParams& repeatParams) {                                                 \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src0, src1, mask, repeatTimes, repeatParams);                            \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          std::uint64_t mask[], const std::uint8_t repeatTimes,                                     \
                          const BinaryRepeatParams& repeatParams) {                                                 \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src0, src1, static_cast<const std::uint64_t*>(mask), repeatTimes, repeatParams);                                                                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          std::uint64_t mask, const std::uint8_t repeatTimes,                                       \
                          const BinaryRepeatParams& repeatParams) {                                                 \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src0, src1, mask, repeatTimes, repeatParams);                            \
  }

NPUKB_BINARY(Add, kCostSimple, a + b, half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Sub, kCostSimple, a - b, half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Mul, kCostSimple, a * b, half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Div, kCostDiv, a / b, half, float)
NPUKB_BINARY(Max, kCostSimple, (a > b ? a : b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Min, kCostSimple, (a < b ? a : b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(And, kCostSimple, a & b, std::int16_t, std::uint16_t)
NPUKB_BINARY(Or, kCostSimple, a | b, std::int16_t, std::uint16_t)
NPUKB_BINARY(AddRelu, kCostSimple, ((a + b) > 0 ? (a + b) : 0), half, float, std::int16_t)
NPUKB_BINARY(SubRelu, kCostSimple, ((a - b) > 0 ? (a - b) : 0), half, float, std::int16_t)

}  // namespace AscendC
