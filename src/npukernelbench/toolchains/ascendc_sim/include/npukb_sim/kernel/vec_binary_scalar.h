// npukb_sim/kernel/vec_binary_scalar.h -- tensor-op-scalar vector APIs (Adds, Muls, Maxs, Mins,
// LeakyRelu; ShiftLeft, ShiftRight of the logic family): the count form (with isSetMask: false takes
// the element count from the mask register in counter mode), the bit-mask and continuous-mask forms,
// and the overloads whose scalar type U is a template parameter (enabled when U is the operand's
// element type, PrimT<T>). Integer arithmetic wraps; shifts follow the documented logical (unsigned)
// and arithmetic (signed: the sign bit stays) rules with the shift amount in [0, bits]; ShiftRight's
// roundEn adds the last bit shifted out (signed types). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/vec_drivers.h"
#include "npukb_sim/kernel/vec_traits.h"

namespace AscendC {
namespace sim {

// dst = src << n (n in [0, bits]): logical for unsigned, arithmetic (sign bit kept) for signed types.
template <typename T>
inline T shift_left(T a, std::int64_t n) {
  constexpr int bits = static_cast<int>(sizeof(T) * 8);
  using U = uns_t<T>;
  const std::uint64_t ua = static_cast<U>(a);
  if constexpr (std::is_signed_v<T>) {
    const std::uint64_t sign = ua & (std::uint64_t{1} << (bits - 1));
    const std::uint64_t body = n >= bits ? 0 : ((ua << n) & ((std::uint64_t{1} << (bits - 1)) - 1));
    return static_cast<T>(static_cast<U>(sign | body));
  } else {
    return static_cast<T>(n >= bits ? 0 : static_cast<U>(ua << n));
  }
}
// dst = src >> n: logical for unsigned, arithmetic for signed; roundEn (signed only) adds bit n-1 of src.
template <typename T>
inline T shift_right(T a, std::int64_t n, bool roundEn) {
  constexpr int bits = static_cast<int>(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    const std::int64_t v = static_cast<std::int64_t>(a);
    std::int64_t r = n >= bits ? (v < 0 ? -1 : 0) : (v >> n);
    if (roundEn && n >= 1 && n <= bits) r += (v >> (n - 1)) & 1;
    return static_cast<T>(static_cast<uns_t<T>>(static_cast<std::uint64_t>(r)));
  } else {
    const std::uint64_t v = static_cast<uns_t<T>>(a);
    return static_cast<T>(n >= bits ? 0 : (v >> n));
  }
}
template <typename T>
inline void check_shift(const char* api, T amount, const char* file, int line) {
  const long long n = static_cast<long long>(amount);
  const long long bits = static_cast<long long>(sizeof(T) * 8);
  if (n < 0 || n > bits) {
    npukb::violation(api, "scalarValue (the shift amount) " + npukb::kern::num(n) + " is outside [0, " +
                     npukb::kern::num(bits) + "] for this data type", file, line);
  }
}

template <typename T>
inline T maxs_of(T a, T s) {
  if constexpr (std::is_integral_v<T>) return a > s ? a : s;
  else return static_cast<float>(a) > static_cast<float>(s) ? a : s;
}
template <typename T>
inline T mins_of(T a, T s) {
  if constexpr (std::is_integral_v<T>) return a < s ? a : s;
  else return static_cast<float>(a) < static_cast<float>(s) ? a : s;
}
template <typename T>
inline T leaky_relu(T a, T s) { return static_cast<float>(a) >= 0.0f ? a : static_cast<T>(static_cast<float>(a) * static_cast<float>(s)); }
}  // namespace sim

// ---- tensor op scalar --------------------------------------------------------------------------
// The scalar-type-U overloads: the reference declares their last template parameter as
// `typename Std::enable_if<Std::is_same<PrimT<T>, U>::value, bool>::type = true`. Here the parameter is
// the same `bool = true` slot without the SFINAE condition, and the condition is a static_assert in the
// body: with U == T both overloads fit a function-pointer target (`ForeachOp<T, Adds>` in real code),
// and g++ finds the two ambiguous when the slot's type depends on U; a mismatched U still fails to
// compile, as documented.
#define NPUKB_U_ENABLE typename Std::enable_if<true, bool>::type = true
namespace sim {
template <typename U>
constexpr bool scalar_is_tensor = false;
template <typename E>
constexpr bool scalar_is_tensor<LocalTensor<E>> = true;
}  // namespace sim
// A tensor passed where the scalar belongs is a wrong argument kind, reported as such (not as a dtype).
#define NPUKB_U_CHECK(NAME)                                                                                     \
  static_assert(!sim::scalar_is_tensor<U>, #NAME ": a tensor passed where the scalar value belongs");          \
  static_assert(sim::scalar_is_tensor<U> || std::is_same_v<PrimT<T>, U>,                                      \
                #NAME ": the scalar's type U must be the operand's element type")
// CHECK: a statement run with the scalar `s` and the element type T in scope (range checks);
// EXPR: the result of element `a` (type T) with the scalar `s` (type T).
#define NPUKB_SCALAR_BODY_COUNT(NAME, COST, CHECK, EXPR)                                                            \
  const T s = scalarValue;                                                                                          \
  CHECK;                                                                                                            \
  sim::unary_count_mask(#NAME, dst, src, isSetMask, count, COST, [s](T a) -> T { return EXPR; }, file, line);
#define NPUKB_SCALAR_BODY_MASK(NAME, COST, CHECK, EXPR, BITS, CONT)                                                  \
  const T s = scalarValue;                                                                                          \
  CHECK;                                                                                                            \
  sim::unary_mask(#NAME, dst, src, isSetMask, BITS, CONT, repeatTime.value, repeatParams.dstBlkStride,              \
                  repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,            \
                  [s](T a) -> T { return EXPR; }, file, line);

#define NPUKB_SCALAR(NAME, COST, CHECK, EXPR, ...)                                                                  \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,                      \
                   const std::int32_t& count) { NPUKB_CALLER;                                                   \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    NPUKB_SCALAR_BODY_COUNT(NAME, COST, CHECK, EXPR)                                                                \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,                      \
                   const std::uint64_t mask[], sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    NPUKB_SCALAR_BODY_MASK(NAME, COST, CHECK, EXPR, mask, 0)                                                        \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, std::uint64_t mask,  \
                   sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    NPUKB_SCALAR_BODY_MASK(NAME, COST, CHECK, EXPR, nullptr, mask)                                                  \
  }                                                                                                                 \
  /* the scalar's type as a template parameter U (must be the operand's element type) */                           \
  template <typename T, typename U, bool isSetMask = true,                                                          \
            NPUKB_U_ENABLE>                           \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,                      \
                   const std::int32_t& count) { NPUKB_CALLER;                                                   \
    if constexpr (sim::has_trait<T>) {  /* a tensor of a TensorTrait: the LiteType form */ \
      NAME<PrimT<T>, U, isSetMask>(sim::lite(dst), sim::lite(src), scalarValue, count);  \
    } else {  \
    NPUKB_U_CHECK(NAME);                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    NPUKB_SCALAR_BODY_COUNT(NAME, COST, CHECK, EXPR)                                                                \
    }  \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true,                                                          \
            NPUKB_U_ENABLE>                           \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,                      \
                   const std::uint64_t mask[], sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T>) {  /* a tensor of a TensorTrait: the LiteType form */ \
      NAME<PrimT<T>, U, isSetMask>(sim::lite(dst), sim::lite(src), scalarValue, mask, repeatTime, repeatParams);  \
    } else {  \
    NPUKB_U_CHECK(NAME);                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    NPUKB_SCALAR_BODY_MASK(NAME, COST, CHECK, EXPR, mask, 0)                                                        \
    }  \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true,                                                          \
            NPUKB_U_ENABLE>                           \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, std::uint64_t mask,  \
                   sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;            \
    if constexpr (sim::has_trait<T>) {  /* a tensor of a TensorTrait: the LiteType form */ \
      NAME<PrimT<T>, U, isSetMask>(sim::lite(dst), sim::lite(src), scalarValue, mask, repeatTime, repeatParams);  \
    } else {  \
    NPUKB_U_CHECK(NAME);                                                                                            \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    NPUKB_SCALAR_BODY_MASK(NAME, COST, CHECK, EXPR, nullptr, mask)                                                  \
    }  \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          const std::int32_t& count) {                                                              \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, count);                                                \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          std::uint64_t mask[], const std::uint8_t repeatTime,                                      \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, static_cast<const std::uint64_t*>(mask), repeatTime, repeatParams);                                                                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          const std::uint64_t mask[], const std::uint8_t repeatTime,                                \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTime, repeatParams);                       \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          std::uint64_t mask, const std::uint8_t repeatTime,                                        \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTime, repeatParams);                       \
  }

#define NPUKB_NO_CHECK (void)0
NPUKB_SCALAR(Adds, kCostSimple, NPUKB_NO_CHECK, sim::wadd<T>(a, s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Muls, kCostSimple, NPUKB_NO_CHECK, sim::wmul<T>(a, s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Maxs, kCostSimple, NPUKB_NO_CHECK, sim::maxs_of<T>(a, s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Mins, kCostSimple, NPUKB_NO_CHECK, sim::mins_of<T>(a, s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(LeakyRelu, kCostSimple, NPUKB_NO_CHECK, sim::leaky_relu<T>(a, s), half, float)
NPUKB_SCALAR(ShiftLeft, kCostSimple, sim::check_shift<T>("ShiftLeft", s, file, line), sim::shift_left<T>(a, s), std::int16_t,
             std::uint16_t, std::int32_t, std::uint32_t)
#undef NPUKB_NO_CHECK

// ---- ShiftRight: the mask forms take roundEn ----------------------------------------------------
#define NPUKB_SHR_TYPES std::int16_t, std::uint16_t, std::int32_t, std::uint32_t
#define NPUKB_SHR_ASSERT \
  static_assert(sim::one_of<T, NPUKB_SHR_TYPES>, "ShiftRight: unsupported data type (supported: int16_t, uint16_t, int32_t, uint32_t)")
#define NPUKB_SHR_MASK(BITS, CONT)                                                                                   \
  const T s = scalarValue;                                                                                           \
  sim::check_shift<T>("ShiftRight", s, file, line);                                                                  \
  const bool rnd = roundEn;                                                                                          \
  sim::unary_mask("ShiftRight", dst, src, isSetMask, BITS, CONT, repeatTime.value, repeatParams.dstBlkStride,        \
                  repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, kCostSimple,      \
                  [s, rnd](T a) -> T { return sim::shift_right<T>(a, s, rnd); }, file, line);
#define NPUKB_SHR_COUNT                                                                                              \
  const T s = scalarValue;                                                                                           \
  sim::check_shift<T>("ShiftRight", s, file, line);                                                                  \
  sim::unary_count_mask("ShiftRight", dst, src, isSetMask, count, kCostSimple,                                       \
                        [s](T a) -> T { return sim::shift_right<T>(a, s, false); }, file, line);

template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const std::int32_t& count) { NPUKB_CALLER;
  NPUKB_SHR_ASSERT;
  NPUKB_SHR_COUNT
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const std::uint64_t mask[],
                       sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn = false) { NPUKB_CALLER;
  NPUKB_SHR_ASSERT;
  NPUKB_SHR_MASK(mask, 0)
}
template <typename T, bool isSetMask = true>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, std::uint64_t mask,
                       sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn = false) { NPUKB_CALLER;
  NPUKB_SHR_ASSERT;
  NPUKB_SHR_MASK(nullptr, mask)
}
template <typename T, typename U, bool isSetMask = true,
          NPUKB_U_ENABLE>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, const std::int32_t& count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // a tensor of a TensorTrait: the LiteType form
    ShiftRight<PrimT<T>, U, isSetMask>(sim::lite(dst), sim::lite(src), scalarValue, count);
  } else {
    NPUKB_U_CHECK(ShiftRight);
    NPUKB_SHR_ASSERT;
    NPUKB_SHR_COUNT
  }
}
template <typename T, typename U, bool isSetMask = true,
          NPUKB_U_ENABLE>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, const std::uint64_t mask[],
                       sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // a tensor of a TensorTrait: the LiteType form
    ShiftRight<PrimT<T>, U, isSetMask>(sim::lite(dst), sim::lite(src), scalarValue, mask, repeatTime, repeatParams, roundEn);
  } else {
    NPUKB_U_CHECK(ShiftRight);
    NPUKB_SHR_ASSERT;
    NPUKB_SHR_MASK(mask, 0)
  }
}
template <typename T, typename U, bool isSetMask = true,
          NPUKB_U_ENABLE>
inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, std::uint64_t mask,
                       sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams, bool roundEn) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // a tensor of a TensorTrait: the LiteType form
    ShiftRight<PrimT<T>, U, isSetMask>(sim::lite(dst), sim::lite(src), scalarValue, mask, repeatTime, repeatParams, roundEn);
  } else {
    NPUKB_U_CHECK(ShiftRight);
    NPUKB_SHR_ASSERT;
    NPUKB_SHR_MASK(nullptr, mask)
  }
}
template <typename T, bool isSetMask = true, NPUKB_PTR_RET>
inline npukbPtrRet ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                              const std::int32_t& count) {
  NPUKB_PTR_CHECK(ShiftRight);
  ShiftRight<T, isSetMask>(dst, src, scalarValue, count);
}
#undef NPUKB_SHR_COUNT
#undef NPUKB_SHR_MASK
#undef NPUKB_SHR_ASSERT
#undef NPUKB_SHR_TYPES

}  // namespace AscendC
