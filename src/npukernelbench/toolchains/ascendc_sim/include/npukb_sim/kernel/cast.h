// npukb_sim/kernel/cast.h -- Cast with every RoundMode and the (src, dst) pairs Atlas A2/A3 support
// (int4b_t included: two 4-bit integers per byte, element 2i in the low nibble), and the DEQSCALE
// register (SetDeqScale) that the int32_t -> half conversions read. Rounding follows the documented
// rules (CAST_NONE = CAST_RINT where the value is not exact; CAST_ROUND = half away from zero;
// CAST_ODD = the neighbour with an odd last bit); integer results saturate, NaN converts to 0; a
// floating overflow gives the IEEE result of the rounding mode (inf, or the largest finite value for
// the directed modes). A round mode the pair does not list is reported as a warning and computed as
// CAST_NONE (the pair's default). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <algorithm>
#include <limits>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

// (dst, src) pairs of the vector Cast on Atlas A2/A3.
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

constexpr unsigned rm_bit(RoundMode m) { return 1u << static_cast<unsigned>(m); }
constexpr unsigned kRmDirected = rm_bit(RoundMode::CAST_RINT) | rm_bit(RoundMode::CAST_FLOOR) | rm_bit(RoundMode::CAST_CEIL) |
                                 rm_bit(RoundMode::CAST_ROUND) | rm_bit(RoundMode::CAST_TRUNC);
// The round modes each pair lists (the data type table of the Cast page).
template <typename D, typename S>
constexpr unsigned cast_modes() {
  if constexpr (std::is_same_v<S, std::int32_t> && std::is_same_v<D, half>) return ~0u;  // roundMode has no effect
  else if constexpr (std::is_same_v<S, float> && std::is_same_v<D, half>) return kRmDirected | rm_bit(RoundMode::CAST_NONE) | rm_bit(RoundMode::CAST_ODD);
  else if constexpr ((std::is_same_v<S, std::int16_t> && std::is_same_v<D, half>) ||
                     (std::is_same_v<S, half> && one_of<D, int4b_t, std::int8_t, std::uint8_t>) ||
                     (std::is_same_v<S, std::int32_t> && std::is_same_v<D, float>))
    return kRmDirected | rm_bit(RoundMode::CAST_NONE);
  else if constexpr ((std::is_same_v<S, half> && one_of<D, std::int16_t, std::int32_t>) ||
                     (std::is_same_v<S, bfloat16_t> && std::is_same_v<D, std::int32_t>) ||
                     (std::is_same_v<S, float> && one_of<D, std::int16_t, bfloat16_t, std::int32_t, float, std::int64_t>) ||
                     (std::is_same_v<S, std::int64_t> && std::is_same_v<D, float>))
    return kRmDirected;
  else return rm_bit(RoundMode::CAST_NONE);  // exact conversions
}

template <typename F> struct FBits;
template <> struct FBits<half> { using U = std::uint16_t; };
template <> struct FBits<bfloat16_t> { using U = std::uint16_t; };
template <> struct FBits<float> { using U = std::uint32_t; };

template <typename F> inline F fconv(long double v) {
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

// Round an exact value (long double: every int64_t is exact) to the floating type F under a RoundMode.
template <typename F> inline F round_fp(long double v, RoundMode m) {
  const F h = fconv<F>(v);
  if (__builtin_isnan(v) || __builtin_isinf(v)) return h;
  const long double hv = static_cast<long double>(static_cast<float>(h));
  if (hv == v || m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT) return h;
  const F lo = hv < v ? h : fstep(h, false);
  const F hi = hv > v ? h : fstep(h, true);
  switch (m) {
    case RoundMode::CAST_FLOOR: return lo;
    case RoundMode::CAST_CEIL: return hi;
    case RoundMode::CAST_TRUNC: return v > 0 ? lo : hi;
    case RoundMode::CAST_ROUND: {
      const long double dl = v - static_cast<long double>(static_cast<float>(lo));
      const long double dh = static_cast<long double>(static_cast<float>(hi)) - v;
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

inline long double round_int(long double v, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR: return __builtin_floorl(v);
    case RoundMode::CAST_CEIL: return __builtin_ceill(v);
    case RoundMode::CAST_ROUND: return __builtin_roundl(v);
    case RoundMode::CAST_TRUNC: return __builtin_truncl(v);
    default: return __builtin_nearbyintl(v);  // CAST_NONE / CAST_RINT: round half to even
  }
}

template <typename D, typename S>
inline D cast_one(S x, RoundMode m) {
  const long double v = static_cast<long double>(static_cast<std::conditional_t<std::is_integral_v<S>, S, float>>(x));
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
    const long double r = std::is_integral_v<S> ? v : round_int(v, m);
    constexpr long double lo = static_cast<long double>(std::numeric_limits<D>::min());
    constexpr long double hi = static_cast<long double>(std::numeric_limits<D>::max());
    if (r <= lo) return std::numeric_limits<D>::min();
    if (r >= hi) return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  }
}

// ---- the DEQSCALE register ---------------------------------------------------------------------
// The half scale of the int32_t -> half conversions: bits 0-15 of DEQSCALE.
inline float deq_half_scale() {
  const std::uint16_t b = static_cast<std::uint16_t>(npukb::kern::state().deq_reg & 0xFFFFu);
  half h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
// One quantization word of CastDequant int16_t -> b8: bits 0-31 the scale (read as a float with a
// 10-bit mantissa: the hardware ignores the 13 low mantissa bits), bits 37-45 a signed 9-bit offset,
// bit 46 the sign mode.
struct DeqWord {
  float scale = 1.0f;
  int offset = 0;
  bool sign = true;
};
inline std::uint64_t deq_word(float scale, std::int16_t offset, bool signMode) {
  std::uint32_t sb;
  std::memcpy(&sb, &scale, 4);
  return static_cast<std::uint64_t>(sb) | (static_cast<std::uint64_t>(static_cast<std::uint16_t>(offset) & 0x1FFu) << 37) |
         (static_cast<std::uint64_t>(signMode ? 1u : 0u) << 46);
}
inline DeqWord deq_decode(std::uint64_t w) {
  DeqWord d;
  const std::uint32_t sb = static_cast<std::uint32_t>(w & 0xFFFFE000u);  // 1 sign, 8 exponent, 10 mantissa bits
  std::memcpy(&d.scale, &sb, 4);
  const int off9 = static_cast<int>((w >> 37) & 0x1FFu);
  d.offset = off9 >= 256 ? off9 - 512 : off9;
  d.sign = ((w >> 46) & 1u) != 0;
  return d;
}
// int16_t -> b8: (src * scale) + offset rounded to nearest even, saturated to the sign mode's range.
template <typename D>
inline D deq_b8(std::int16_t x, const DeqWord& w) {
  const double v = __builtin_nearbyint(static_cast<double>(x) * static_cast<double>(w.scale) + w.offset);
  if constexpr (std::is_same_v<D, std::int8_t>) return static_cast<D>(v < -128 ? -128 : v > 127 ? 127 : v);
  else return static_cast<D>(v < 0 ? 0 : v > 255 ? 255 : v);
}

// One element of Cast: int32_t -> half goes through the DEQSCALE register (SetDeqScale(half)); its
// roundMode has no effect (round to nearest even).
template <typename D, typename S>
inline D cast_elem(S x, RoundMode m, float deq) {
  if constexpr (std::is_same_v<S, std::int32_t> && std::is_same_v<D, half>) {
    (void)m;
    return round_fp<half>(static_cast<long double>(x) * static_cast<long double>(deq), RoundMode::CAST_RINT);
  } else {
    (void)deq;
    return cast_one<D, S>(x, m);
  }
}

template <typename D, typename S>
inline RoundMode check_round(RoundMode m, const char* file, int line) {
  if ((cast_modes<D, S>() & rm_bit(m)) == 0) {
    npukb::warning("Cast", "roundMode " + npukb::kern::num(static_cast<int>(m)) + " is not documented for this (dst, src) pair "
                   "on Atlas A2/A3; computed as CAST_NONE", file, line);
    if (!(std::is_same_v<S, float> && std::is_same_v<D, float>)) return RoundMode::CAST_NONE;
  }
  return m;
}

// ---- int4b_t: two elements per byte, element 2i in the low nibble ----------------------------------
inline int nibble_get(const std::uint8_t* p, std::uint64_t i) {
  const int v = (p[i >> 1] >> ((i & 1) * 4)) & 0xF;
  return v >= 8 ? v - 16 : v;
}
inline void nibble_set(std::uint8_t* p, std::uint64_t i, int v) {
  const std::uint8_t q = static_cast<std::uint8_t>(v & 0xF);
  const unsigned sh = static_cast<unsigned>((i & 1) * 4);
  p[i >> 1] = static_cast<std::uint8_t>((p[i >> 1] & ~(0xFu << sh)) | (q << sh));
}
inline int to_int4(half x, RoundMode m) {
  const long double v = static_cast<long double>(static_cast<float>(x));
  if (__builtin_isnan(v)) return 0;
  const long double r = round_int(v, m);
  return r <= -8 ? -8 : r >= 7 ? 7 : static_cast<int>(r);
}
// Byte offset and nibble of element k of repeat r of an int4b_t operand (64 elements per 32-byte block).
inline std::uint64_t int4_index(std::uint32_t r, std::uint32_t k, std::uint32_t blk, std::uint32_t rep) {
  return (static_cast<std::uint64_t>(r) * rep + static_cast<std::uint64_t>(k / 64) * blk) * 64 + k % 64;
}
inline void check_int4_mask(const Plan& pl, const char* file, int line) {
  if (pl.counter ? (pl.total % 2 != 0) : (((pl.m0 ^ (pl.m0 >> 1)) & 0x5555555555555555ull) != 0 ||
                                          ((pl.m1 ^ (pl.m1 >> 1)) & 0x5555555555555555ull) != 0)) {
    npukb::violation("Cast", "with int4b_t the mask must select whole bytes (an even count; bits 2i and 2i+1 equal)", file, line);
  }
}
template <typename T, typename U>
inline void cast_int4_plan(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode m, const Plan& pl,
                           std::uint32_t dblk, std::uint32_t sblk, std::uint32_t drep, std::uint32_t srep, const char* file, int line) {
  if (pl.empty()) return;
  check_int4_mask(pl, file, line);
  // extents in bytes of each operand (int4b_t: half a byte per element)
  std::uint64_t de = 0, se = 0;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    if constexpr (std::is_same_v<T, int4b_t>) de = std::max<std::uint64_t>(de, int4_index(r, k, dblk, drep) / 2 + 1);
    else de = std::max<std::uint64_t>(de, elem_off(r, k, sizeof(T), dblk, drep) * sizeof(T) + sizeof(T));
    if constexpr (std::is_same_v<U, int4b_t>) se = std::max<std::uint64_t>(se, int4_index(r, k, sblk, srep) / 2 + 1);
    else se = std::max<std::uint64_t>(se, elem_off(r, k, sizeof(U), sblk, srep) * sizeof(U) + sizeof(U));
  });
  check_local("Cast", "dst", dst, de, true, file, line);
  check_local("Cast", "src", src, se, true, file, line);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  const std::uint8_t* sp = reinterpret_cast<const std::uint8_t*>(src.ptr());
  std::vector<std::uint8_t> out(d, d + de);  // every source element is read before the results are stored
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    if constexpr (std::is_same_v<T, int4b_t>) {
      const half x = ld<half>(sp + elem_off(r, k, 2, sblk, srep) * 2);
      nibble_set(out.data(), int4_index(r, k, dblk, drep), to_int4(x, m));
    } else {
      const half v = static_cast<half>(static_cast<float>(nibble_get(sp, int4_index(r, k, sblk, srep))));
      st<half>(out.data() + elem_off(r, k, 2, dblk, drep) * 2, v);
    }
  });
  std::memcpy(d, out.data(), de);
  const npukb::kern::Span ss = vspan(src, se), ds = vspan(dst, de);
  vec_cost(kCostSimple, pl.repeats, &ss, 1, &ds, 1);
}

template <typename T, typename U>
inline void cast_mask(const LocalTensor<T>& dst, const LocalTensor<U>& src, RoundMode rm, bool isSetMask, const std::uint64_t* bits,
                      std::uint64_t cont, long long repeat, const UnaryRepeatParams& p, const char* file, int line) {
  const RoundMode m = check_round<T, U>(rm, file, line);
  if constexpr (std::is_same_v<T, int4b_t> || std::is_same_v<U, int4b_t>) {
    const Plan pl = make_plan("Cast", isSetMask, bits, cont, repeat, 128, file, line);
    cast_int4_plan(dst, src, m, pl, p.dstBlkStride, p.srcBlkStride, p.dstRepStride, p.srcRepStride, file, line);
  } else {
    const float deq = deq_half_scale();
    unary_mask("Cast", dst, src, isSetMask, bits, cont, repeat, p.dstBlkStride, p.srcBlkStride, p.dstRepStride, p.srcRepStride,
               kCostSimple, [m, deq](U a) -> T { return cast_elem<T, U>(a, m, deq); }, file, line);
  }
}
}  // namespace sim

#define NPUKB_CAST_ASSERT \
  static_assert(sim::cast_ok<T, U>, "Cast: this (dst, src) data type pair is not supported on Atlas A2/A3")
template <typename T, typename U>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const std::uint32_t count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Cast<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(src), roundMode, count);
  } else {
    NPUKB_CAST_ASSERT;
    const RoundMode m = sim::check_round<T, U>(roundMode, file, line);
    if constexpr (std::is_same_v<T, int4b_t> || std::is_same_v<U, int4b_t>) {
      if (count == 0) return;
      const sim::Plan pl = sim::count_plan(count, 128);
      sim::cast_int4_plan(dst, src, m, pl, 1, 1, 8, 8, file, line);
    } else {
      const float deq = sim::deq_half_scale();
      sim::unary_count("Cast", dst, src, count, kCostSimple, [m, deq](U a) -> T { return sim::cast_elem<T, U>(a, m, deq); },
                       file, line);
    }
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const std::uint64_t mask[],
                 sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Cast<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), roundMode, mask, repeatTime, repeatParams);
  } else {
    NPUKB_CAST_ASSERT;
    sim::cast_mask(dst, src, roundMode, isSetMask, mask, 0, repeatTime.value, repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, const std::uint64_t mask,
                 sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Cast<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), roundMode, mask, repeatTime, repeatParams);
  } else {
    NPUKB_CAST_ASSERT;
    sim::cast_mask(dst, src, roundMode, isSetMask, nullptr, mask, repeatTime.value, repeatParams, file, line);
  }
}
#undef NPUKB_CAST_ASSERT

// ---- SetDeqScale: the DEQSCALE register ----------------------------------------------------------
// The 16 quantization parameter sets of CastDequant's vector mode (one per element position of a
// 32-byte block of int16_t).
struct VdeqInfo {
  VdeqInfo() = default;
  VdeqInfo(const float vdeqScaleIn[16], const std::int16_t vdeqOffsetIn[16], const bool vdeqSignModeIn[16]) {
    for (int i = 0; i < 16; ++i) {
      vdeqScale[i] = vdeqScaleIn[i];
      vdeqOffset[i] = vdeqOffsetIn[i];
      vdeqSignMode[i] = vdeqSignModeIn[i];
    }
  }
  float vdeqScale[16] = {};
  std::int16_t vdeqOffset[16] = {};
  bool vdeqSignMode[16] = {};
};

// The half scale of Cast / CastDequant / AddDeqRelu int32_t -> half.
inline void SetDeqScale(half scale) {
  std::uint16_t b;
  std::memcpy(&b, &scale, 2);
  npukb::kern::KState& s = npukb::kern::state();
  s.deq_reg = b;
  s.vdeq_ub = ~0u;
}
// CastDequant int16_t -> b8 without vector quantization: scale, a 9-bit offset, the sign mode.
inline void SetDeqScale(float scale, std::int16_t offset, bool signMode) {
  npukb::kern::KState& s = npukb::kern::state();
  s.deq_reg = sim::deq_word(scale, offset, signMode);
  s.vdeq_ub = ~0u;
}
// CastDequant int16_t -> b8 with vector quantization: the 16 parameter sets are written to vdeq (128
// bytes of UB, 16 x 64-bit words) and the register points at it.
template <typename T>
inline void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo) { NPUKB_CALLER;
  static_assert(std::is_same_v<T, std::uint64_t>, "SetDeqScale(vdeq, vdeqInfo): vdeq must be LocalTensor<uint64_t>");
  sim::check_local("SetDeqScale", "vdeq", vdeq, 128, true, file, line);
  for (int i = 0; i < 16; ++i) {
    const std::uint64_t w = sim::deq_word(vdeqInfo.vdeqScale[i], vdeqInfo.vdeqOffset[i], vdeqInfo.vdeqSignMode[i]);
    std::memcpy(vdeq.ptr() + i, &w, 8);
  }
  npukb::kern::KState& s = npukb::kern::state();
  s.vdeq_ub = vdeq.loc().addr;
  s.deq_reg = (vdeq.loc().addr / 32u) & 0x3FFFu;
  const npukb::kern::Span dp = sim::vspan(vdeq, 128);
  npukb::kern::schedule(npukb::PIPE_ID_S, 16.0 * npukb::kern::kScalarUbCycles, nullptr, 0, &dp, 1);
}

// Scalar casts of the public API.
template <typename T, typename U, RoundMode roundMode>
inline U ScalarCast(T valueIn) {
  static_assert(std::is_same_v<T, float> && (std::is_same_v<U, half> || std::is_same_v<U, std::int32_t>),
                "ScalarCast supports float -> half and float -> int32_t");
  return sim::cast_one<U, T>(valueIn, roundMode);
}

}  // namespace AscendC
