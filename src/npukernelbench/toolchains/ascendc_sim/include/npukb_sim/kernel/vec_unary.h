// npukb_sim/kernel/vec_unary.h -- unary vector APIs (Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu of
// the arithmetic family; Not of the logic family), count form and mask/repeat forms. Exp, Ln,
// Reciprocal, Sqrt and Rsqrt also take the precision configuration template parameter of their
// prototypes (no effect on Atlas A2/A3: vec_traits.h). Results are computed in float and rounded once
// to the element type. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"
#include "npukb_sim/kernel/vec_traits.h"

namespace AscendC {
namespace sim {
template <typename T>
inline T relu_value(T a) { return a > T(0) ? a : T(0); }
}  // namespace sim

#define NPUKB_COMMA ,

// ---- unary -------------------------------------------------------------------------------------
#define NPUKB_UNARY_CFG(NAME, CFG, COST, EXPR, ...)                                                                          \
  template <typename T CFG>                                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t& calCount) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>>(sim::lite(dst), sim::lite(src), calCount);                                                         \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_count(#NAME, dst, src, calCount, COST, [](T a) -> T { return static_cast<T>(EXPR); }, file, line);  \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true CFG>                                                                  \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],                \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;           \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTimes, repeatParams);                       \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_mask(#NAME, dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstBlkStride,              \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                    \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true CFG>                                                                  \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask,                        \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;           \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTimes, repeatParams);                       \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_mask(#NAME, dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstBlkStride,        \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                    \
    }                                                                                                                   \
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

#define NPUKB_NO_CFG
NPUKB_UNARY_CFG(Exp, NPUKB_COMMA const ExpConfig& config = DEFAULT_EXP_CONFIG, kCostTrans, __builtin_expf(sim::tofl(a)), half,
                float)
NPUKB_UNARY_CFG(Ln, NPUKB_COMMA const LnConfig& config = DEFAULT_LN_CONFIG, kCostTrans, __builtin_logf(sim::tofl(a)), half,
                float)
NPUKB_UNARY_CFG(Abs, NPUKB_NO_CFG, kCostSimple, __builtin_fabsf(sim::tofl(a)), half, float)
NPUKB_UNARY_CFG(Sqrt, NPUKB_COMMA const SqrtConfig& config = DEFAULT_SQRT_CONFIG, kCostTrans,
                __builtin_sqrtf(sim::tofl(a)), half, float)
NPUKB_UNARY_CFG(Rsqrt, NPUKB_COMMA const RsqrtConfig& config = DEFAULT_RSQRT_CONFIG, kCostTrans,
                1.0f / __builtin_sqrtf(sim::tofl(a)), half, float)
NPUKB_UNARY_CFG(Reciprocal, NPUKB_COMMA const ReciprocalConfig& config = DEFAULT_RECIPROCAL_CONFIG, kCostTrans,
                1.0f / sim::tofl(a), half, float)
NPUKB_UNARY_CFG(Relu, NPUKB_NO_CFG, kCostSimple, sim::relu_value(a), half, float, std::int32_t)
NPUKB_UNARY_CFG(Not, NPUKB_NO_CFG, kCostSimple, ~a, std::int16_t, std::uint16_t)
#undef NPUKB_NO_CFG
#undef NPUKB_COMMA

}  // namespace AscendC
