// npukb_sim/kernel/vec_binary.h -- binary vector APIs (Add, Sub, Mul, Div, Max, Min of the arithmetic
// family, And, Or of the logic family, AddRelu, SubRelu of the fused family), count form and
// mask/repeat forms; signatures and dtype sets follow the public API for Atlas A2/A3 (910B / 910_93).
// Integer results wrap (two's complement, no saturation); Div also takes its precision configuration
// template parameter (no effect on A2/A3). The whole-tensor operator forms (dst = src0 + src1, ...)
// are in vec_operators.h. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_drivers.h"
#include "npukb_sim/kernel/vec_traits.h"

namespace AscendC {

// ---- binary ------------------------------------------------------------------------------------
#define NPUKB_BINARY_CFG(NAME, CFG, COST, EXPR, ...)                                                                        \
  template <typename T CFG>                                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::int32_t& calCount) { NPUKB_CALLER;                                                \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>>(sim::lite(dst), sim::lite(src0), sim::lite(src1), calCount);                                       \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_count(#NAME, dst, src0, src1, calCount, COST, [](T a, T b) -> T { return static_cast<T>(EXPR); }, \
                      file, line);                                                                                  \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true CFG>                                                                  \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTimes, repeatParams);     \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_mask(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTimes.value, repeatParams, COST,            \
                     [](T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                              \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true CFG>                                                                  \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTimes, repeatParams);     \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_mask(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTimes.value, repeatParams, COST,      \
                     [](T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                              \
    }                                                                                                                   \
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

#define NPUKB_COMMA ,
#define NPUKB_NO_CFG
NPUKB_BINARY_CFG(Add, NPUKB_NO_CFG, kCostSimple, sim::wadd<T>(a, b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY_CFG(Sub, NPUKB_NO_CFG, kCostSimple, sim::wsub<T>(a, b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY_CFG(Mul, NPUKB_NO_CFG, kCostSimple, sim::wmul<T>(a, b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY_CFG(Div, NPUKB_COMMA const DivConfig& config = DEFAULT_DIV_CONFIG, kCostDiv, a / b, half, float)
NPUKB_BINARY_CFG(Max, NPUKB_NO_CFG, kCostSimple, (a > b ? a : b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY_CFG(Min, NPUKB_NO_CFG, kCostSimple, (a < b ? a : b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY_CFG(And, NPUKB_NO_CFG, kCostSimple, a & b, std::int16_t, std::uint16_t)
NPUKB_BINARY_CFG(Or, NPUKB_NO_CFG, kCostSimple, a | b, std::int16_t, std::uint16_t)
NPUKB_BINARY_CFG(AddRelu, NPUKB_NO_CFG, kCostSimple, sim::relu_of<T>(sim::wadd<T>(a, b)), half, float, std::int16_t)
NPUKB_BINARY_CFG(SubRelu, NPUKB_NO_CFG, kCostSimple, sim::relu_of<T>(sim::wsub<T>(a, b)), half, float, std::int16_t)
#undef NPUKB_NO_CFG
#undef NPUKB_COMMA

}  // namespace AscendC
