// npukb_sim/kernel/lib_math.h -- the high-level math library (SIMD-API/高阶API/数学计算) for Atlas A2 / A3:
// the unary driver every elementwise library API uses (dtype sets, sharedTmpBuffer checks against the
// simulator's minimum, isReuseSource, cost as an instruction sequence) and the overload-set macros, then
// the families, one header each:
//   lib_math_trig.h     Sin, Cos, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh
//   lib_math_special.h  Erf, Erfc, Digamma, Lgamma, the high-level Exp, Log, Log2, Log10, Power
//   lib_math_round.h    Round, Floor, Ceil, Trunc, Frac, Sign, Fmod
//   lib_math_arith.h    the high-level Axpy, ClampMax, ClampMin, Xor, CumSum
// The activations (Sigmoid, Gelu, ...) are in lib_activation.h. Each API computes in fp32 (half and
// bfloat16_t sources are widened, the result rounded once to the element type) with the documented
// formula and special values; see docs/simulator.md. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/lib_hl_common.h"
#include "npukb_sim/kernel/vec_unary.h"  // the basic Exp next to the high-level one

namespace AscendC {
namespace sim {

// An elementwise library API with one source: Op gives name, seq (HlSeq), factor(typeSize, reuse)
// (npukb_lib::TmpFactor), eval(float) and, when its docs let isReuseSource overwrite a float source,
// kReusesSource with reused(float) (the intermediate the sequence leaves in the source).
template <typename Op, typename = void>
struct hl_reuses : std::false_type {};
template <typename Op>
struct hl_reuses<Op, std::void_t<decltype(Op::kReusesSource)>> : std::bool_constant<Op::kReusesSource> {};

template <typename Op, typename = void>
struct hl_limited : std::false_type {};
template <typename Op>
struct hl_limited<Op, std::void_t<decltype(Op::kLimit)>> : std::true_type {};

template <typename T>
constexpr bool hl_half_float = one_of<T, half, float>;

// Inputs beyond an API's documented A2 / A3 range (Sin, Cos, Tan: [-65504, 65504]): a warning.
template <typename T>
inline void hl_range_warning(const char* api, const LocalTensor<T>& src, std::uint32_t count, float limit, const char* file,
                             int line) {
  if (src.loc().base == nullptr) return;
  const T* p = src.ptr();
  for (std::uint32_t i = 0; i < count; ++i) {
    const float v = static_cast<float>(p[i]);
    if (v > limit || v < -limit) {
      npukb::warning(api, "srcTensor[" + npukb::kern::num(i) + "] = " + std::to_string(v) +
                     " is outside the documented input range [-65504, 65504] of Atlas A2 / A3: the result is imprecise",
                     file, line);
      return;
    }
  }
}

template <typename Op, typename T, bool isReuseSource>
inline void hl_unary(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp,
                     std::uint32_t count, const char* file, int line) {
  constexpr bool reuse = isReuseSource && hl_reuses<Op>::value && std::is_same_v<T, float>;
  const HlSrc<T> s[1] = {{&src, "srcTensor"}};
  if constexpr (hl_limited<Op>::value) hl_range_warning(Op::name, src, count, Op::kLimit, file, line);
  if constexpr (reuse) {
    // The docs let the API use a float source as work space: what it leaves there is an intermediate.
    if (count != 0) hl_operand(Op::name, "srcTensor", src, static_cast<std::uint64_t>(count) * sizeof(T), file, line);
    const std::vector<T> keep(src.ptr(), src.ptr() + count);
    hl_elementwise(Op::name, dst, "dstTensor", s, tmp, count, Op::factor(sizeof(T), true), Op::seq,
                   [](float x) { return Op::eval(x); }, file, line);
    T* p = src.ptr();
    const bool in_place = src.ptr() == dst.ptr();
    if (!in_place) for (std::uint32_t i = 0; i < count; ++i) p[i] = hl_out<T>(Op::reused(hl_in<T>(keep[i])));
  } else {
    hl_elementwise(Op::name, dst, "dstTensor", s, tmp, count, Op::factor(sizeof(T), isReuseSource), Op::seq,
                   [](float x) { return Op::eval(x); }, file, line);
  }
}

}  // namespace sim

// Overload sets of a unary library API, one documented form per macro. OK: the dtype predicate (in
// parentheses), TYPES: its text; the variadic part:
// extra template parameters after isReuseSource (e.g. `, const CosConfig& config = defaultCosConfig`).
// Each overload has its function-pointer companion (see vec_elementwise_common.h).
#define NPUKB_HL_UNARY_TMP_COUNT(NAME, OP, OK, TYPES, ...)                                                             \
  template <typename T, bool isReuseSource = false __VA_ARGS__>                                                       \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                  \
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER; \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, &sharedTmpBuffer, calCount, file, line);               \
  }                                                                                                                   \
  template <typename T, bool isReuseSource = false __VA_ARGS__, NPUKB_PTR_RET>                                        \
  inline npukbPtrRet NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                           \
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) {           \
    NPUKB_PTR_CHECK(NAME);                                                                                            \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, &sharedTmpBuffer, calCount);            \
  }

#define NPUKB_HL_UNARY_COUNT(NAME, OP, OK, TYPES, ...)                                                                 \
  template <typename T, bool isReuseSource = false __VA_ARGS__>                                                       \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const std::uint32_t calCount) { NPUKB_CALLER;                                                                                \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, nullptr, calCount, file, line);                        \
  }                                                                                                                   \
  template <typename T, bool isReuseSource = false __VA_ARGS__, NPUKB_PTR_RET>                                        \
  inline npukbPtrRet NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const std::uint32_t calCount) { \
    NPUKB_PTR_CHECK(NAME);                                                                                            \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, nullptr, calCount);                     \
  }

#define NPUKB_HL_UNARY_TMP_WHOLE(NAME, OP, OK, TYPES, ...)                                                             \
  template <typename T, bool isReuseSource = false __VA_ARGS__>                                                       \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                  \
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;                              \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize(), file, line);    \
  }                                                                                                                   \
  template <typename T, bool isReuseSource = false __VA_ARGS__, NPUKB_PTR_RET>                                        \
  inline npukbPtrRet NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                           \
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer) {                                         \
    NPUKB_PTR_CHECK(NAME);                                                                                            \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, &sharedTmpBuffer, srcTensor.GetSize()); \
  }

#define NPUKB_HL_UNARY_WHOLE(NAME, OP, OK, TYPES, ...)                                                                 \
  template <typename T, bool isReuseSource = false __VA_ARGS__>                                                       \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) { NPUKB_CALLER;              \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, nullptr, srcTensor.GetSize(), file, line);             \
  }                                                                                                                   \
  template <typename T, bool isReuseSource = false __VA_ARGS__, NPUKB_PTR_RET>                                        \
  inline npukbPtrRet NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                         \
    NPUKB_PTR_CHECK(NAME);                                                                                            \
    static_assert(OK, #NAME ": unsupported data type (" TYPES ")");                                                  \
    sim::hl_unary<OP, T, isReuseSource>(dstTensor, srcTensor, nullptr, srcTensor.GetSize());          \
  }

// The four documented forms: with / without sharedTmpBuffer, with / without calCount.
#define NPUKB_HL_UNARY_ALL4(NAME, OP, OK, TYPES, ...)           \
  NPUKB_HL_UNARY_TMP_COUNT(NAME, OP, OK, TYPES, __VA_ARGS__)     \
  NPUKB_HL_UNARY_COUNT(NAME, OP, OK, TYPES, __VA_ARGS__)         \
  NPUKB_HL_UNARY_TMP_WHOLE(NAME, OP, OK, TYPES, __VA_ARGS__)     \
  NPUKB_HL_UNARY_WHOLE(NAME, OP, OK, TYPES, __VA_ARGS__)

}  // namespace AscendC

#define NPUKB_HF (sim::hl_half_float<T>)
#include "npukb_sim/kernel/lib_math_trig.h"
#include "npukb_sim/kernel/lib_math_special.h"
#include "npukb_sim/kernel/lib_math_round.h"
#include "npukb_sim/kernel/lib_math_arith.h"
#include "npukb_sim/kernel/lib_activation.h"
#undef NPUKB_HF
