// npukb_sim/kernel/cast.h -- Cast with every RoundMode and the (src, dst) pairs Atlas A2 supports.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <limits>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

// (dst, src) pairs of the vector Cast on Atlas A2 (910B).
template <typename D, typename S>
constexpr bool cast_ok =
    (std::is_same_v<S, half> && one_of<D, float, std::int32_t, std::int16_t, std::int8_t, std::uint8_t, int4b_t>) ||
    (std::is_same_v<S, float> && one_of<D, half, float, bfloat16_t, std::int32_t, std::int16_t, std::int64_t>) ||
    (std::is_same_v<S, bfloat16_t> && one_of<D, float, std::int32_t>) ||
    (std::is_same_v<S, std::int32_t> && one_of<D, float, half, std::int16_t, std::int64_t>) ||
    (std::is_same_v<S, std::int16_t> && one_of<D, half, float>) ||
    (std::is_same_v<S, std::int8_t> && one_of<D, half>) ||
    (std::is_same_v<S, std::uint8_t> && one_of<D, half>) ||
    (std::is_same_v<S, std::int64_t> && one_of<D, std::int32_t, float>) ||
    (std::is_same_v<S, int4b_t> && one_of<D, half>);

template <typename F> struct FBits;
template <> struct FBits<half> { using U = std::uint16_t; };
template <> struct FBits<bfloat16_t> { using U = std::uint16_t; };
template <> struct FBits<float> { using U = std::uint32_t; };

template <typename F> inline F fconv(double v) {
  if constexpr (std::is_same_v<F, bfloat16_t>) return bfloat16_t(static_cast<float>(v));
  else return static_cast<F>(v);
}
template <typename F> inline F fstep(F x, bool up) {  // next representable value towards +inf (up) or -inf
  using U = typename FBits<F>::U;
  U b;
  std::memcpy(&b, &x, sizeof(U));
  const U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  if ((b & static_cast<U>(~sign)) == 0) b = up ? U(1) : static_cast<U>(sign | 1u);  // +-0
  else if (((b & sign) == 0) == up) b = static_cast<U>(b + 1);
  else b = static_cast<U>(b - 1);
  F r;
  std::memcpy(&r, &b, sizeof(U));
  return r;
}

// Round a double to the floating type F under a RoundMode.
template <typename F> inline F round_fp(double v, RoundMode m) {
  const F h = fconv<F>(v);
  if (__builtin_isnan(v) || __builtin_isinf(v)) return h;
  const double hv = static_cast<double>(static_cast<float>(h));
  if (hv == v || m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) return h;
  const F lo = hv < v ? h : fstep(h, false);
  const F hi = hv > v ? h : fstep(h, true);
  switch (m) {
    case RoundMode::CAST_FLOOR: return lo;
    case RoundMode::CAST_CEIL: return hi;
    case RoundMode::CAST_TRUNC: return v > 0 ? lo : hi;
    case RoundMode::CAST_ROUND: {
      const double dl = v - static_cast<double>(static_cast<float>(lo)), dh = static_cast<double>(static_cast<float>(hi)) - v;
      if (dl < dh) return lo;
      if (dh < dl) return hi;
      return v > 0 ? hi : lo;
    }
    case RoundMode::CAST_ODD: {
      typename FBits<F>::U b;
      std::memcpy(&b, &lo, sizeof(b));
      return (b & 1u) ? lo : hi;
    }
    default: return h;
  }
}

inline double round_int(double v, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR: return __builtin_floor(v);
    case RoundMode::CAST_CEIL: return __builtin_ceil(v);
    case RoundMode::CAST_ROUND: return __builtin_round(v);
    case RoundMode::CAST_TRUNC: return __builtin_trunc(v);
    default: return __builtin_nearbyint(v);  // CAST_NONE / CAST_RINT: round half to even
  }
}

template <typename D, typename S>
inline D cast_one(S x, RoundMode m) {
  const double v = static_cast<double>(static_cast<std::conditional_t<std::is_integral_v<S>, S, float>>(x));
  if constexpr (std::is_same_v<D, float> || std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t>) {
    if constexpr (std::is_same_v<D, float> && !std::is_integral_v<S> && std::is_same_v<S, float>) {
      // float -> float: round to an integral value
      if (__builtin_isnan(v) || __builtin_isinf(v)) return x;
      return static_cast<float>(m == RoundMode::CAST_NONE ? v : round_int(v, m));
    } else {
      return round_fp<D>(v, m);
    }
  } else {
    if (__builtin_isnan(v)) return D(0);
    const double r = std::is_integral_v<S> ? v : round_int(v, m);
    constexpr double lo = static_cast<double>(std::numeric_limits<D>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<D>::max());
    if (r <= lo) return std::numeric_limits<D>::min();
    if (r >= hi) return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  }
}

// One element of Cast: int32_t -> half goes through the DEQSCALE register (SetDeqScale), as on Atlas A2.
template <typename D, typename S>
inline D cast_elem(S x, RoundMode m, float deq) {
  if constexpr (std::is_same_v<S, std::int32_t> && std::is_same_v<D, half>) {
    return round_fp<half>(static_cast<double>(x) * static_cast<double>(deq), m);
  } else {
    (void)deq;
    return cast_one<D, S>(x, m);
  }
}

template <typename D, typename S>
inline void check_round(RoundMode m, const char* file, int line) {
  if (m == RoundMode::CAST_ODD && !(std::is_same_v<S, float> && std::is_same_v<D, half>)) {
    npukb::violation("Cast", "CAST_ODD is only supported for float -> half", file, line);
  }
}
}  // namespace sim

template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode,
                 const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::cast_ok<T, U>, "Cast: this (dst, src) data type pair is not supported on Atlas A2");
  static_assert(!std::is_same_v<T, int4b_t> && !std::is_same_v<U, int4b_t>, "Cast: int4b_t is not simulated");
  sim::check_round<T, U>(round_mode, file, line);
  const RoundMode m = round_mode;
  const float deq = npukb::kern::state().deq_scale;
  sim::unary_count("Cast", dst, src, calCount, kCostSimple, [m, deq](U a) -> T { return sim::cast_elem<T, U>(a, m, deq); },
                   file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, const std::uint64_t mask[],
                 sim::RepeatArg repeatTimes, const UnaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::cast_ok<T, U>, "Cast: this (dst, src) data type pair is not supported on Atlas A2");
  static_assert(!std::is_same_v<T, int4b_t> && !std::is_same_v<U, int4b_t>, "Cast: int4b_t is not simulated");
  sim::check_round<T, U>(round_mode, file, line);
  const RoundMode m = round_mode;
  const float deq = npukb::kern::state().deq_scale;
  sim::unary_mask("Cast", dst, src, isSetMask, mask, 0, repeatTimes.value, p.dstBlkStride, p.srcBlkStride, p.dstRepStride,
                  p.srcRepStride, kCostSimple, [m, deq](U a) -> T { return sim::cast_elem<T, U>(a, m, deq); }, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& round_mode, std::uint64_t mask,
                 sim::RepeatArg repeatTimes, const UnaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::cast_ok<T, U>, "Cast: this (dst, src) data type pair is not supported on Atlas A2");
  static_assert(!std::is_same_v<T, int4b_t> && !std::is_same_v<U, int4b_t>, "Cast: int4b_t is not simulated");
  sim::check_round<T, U>(round_mode, file, line);
  const RoundMode m = round_mode;
  const float deq = npukb::kern::state().deq_scale;
  sim::unary_mask("Cast", dst, src, isSetMask, nullptr, mask, repeatTimes.value, p.dstBlkStride, p.srcBlkStride,
                  p.dstRepStride, p.srcRepStride, kCostSimple, [m, deq](U a) -> T { return sim::cast_elem<T, U>(a, m, deq); }, file, line);
}

// DEQSCALE register used by Cast int32_t -> half (the s322f16 case on Atlas A2).
inline void SetDeqScale(half scale) { npukb::kern::state().deq_scale = static_cast<float>(scale); }

// Scalar casts of the public API.
template <typename T, typename U, RoundMode roundMode>
inline U ScalarCast(T valueIn) {
  static_assert(std::is_same_v<T, float> && (std::is_same_v<U, half> || std::is_same_v<U, std::int32_t>),
                "ScalarCast supports float -> half and float -> int32_t");
  return sim::cast_one<U, T>(valueIn, roundMode);
}

}  // namespace AscendC
