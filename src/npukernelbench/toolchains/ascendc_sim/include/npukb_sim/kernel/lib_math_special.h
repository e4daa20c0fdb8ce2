// npukb_sim/kernel/lib_math_special.h -- special functions, exponent and logarithms of the library:
// Erf, Erfc, Digamma, Lgamma (half, float), the high-level Exp (Taylor expansion of taylorExpandLevel
// terms on the fractional part, as documented), Log, Log2, Log10 (half, float) and Power (tensor ^ tensor,
// tensor ^ scalar, scalar ^ tensor; half, float, int32_t), every documented overload. Clean-room part of
// ascendc-sim (included by lib_math.h).
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/lib_math.h"

namespace AscendC {
namespace sim {

// psi(x) in double (builtins only: a kernel TU never sees <math.h>): reflection below 1/2, recurrence up to 6, then the asymptotic series. Poles: psi(0)
// is -inf, a negative integer gives NaN.
inline double digamma_d(double x) {
  if (__builtin_isnan(x)) return x;
  if (__builtin_isinf(x)) return x > 0 ? x : __builtin_nan("");
  if (x <= 0 && __builtin_floor(x) == x) return x == 0 ? -__builtin_huge_val() : __builtin_nan("");
  double r = 0.0;
  if (x < 0.5) {
    const double pi = 3.14159265358979323846;
    r -= pi / __builtin_tan(pi * x);
    x = 1.0 - x;
  }
  while (x < 6.0) {
    r -= 1.0 / x;
    x += 1.0;
  }
  const double f = 1.0 / (x * x);
  const double series = f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
  return r + __builtin_log(x) - 0.5 / x - series;
}

struct ErfOp {
  static constexpr const char* name = "Erf";
  static constexpr HlSeq seq{14, 1, 1};  // rational approximation on the clamped input
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::ErfTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_erff(x); }
};
struct ErfcOp {
  static constexpr const char* name = "Erfc";
  static constexpr HlSeq seq{16, 2, 1};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::ErfcTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_erfcf(x); }
};
struct DigammaOp {
  static constexpr const char* name = "Digamma";
  static constexpr HlSeq seq{36, 2, 8};  // reflection, recurrence, asymptotic series
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::DigammaTmpFactor(ts, reuse); }
  static float eval(float x) { return static_cast<float>(digamma_d(x)); }
  static constexpr bool kReusesSource = true;  // leaves the fractional part of a float source
  static float reused(float x) { return x - __builtin_floorf(x); }
};
struct LgammaOp {
  static constexpr const char* name = "Lgamma";
  static constexpr HlSeq seq{36, 4, 4};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::LgammaTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_lgammaf(x); }  // ln |Gamma(x)|; the poles give +inf
  static constexpr bool kReusesSource = true;
  static float reused(float x) { return x - __builtin_floorf(x); }
};
// exp(x) = exp(floor(x)) * sum_{k <= level} frac(x)^k / k! (level 0: exp(x) directly), in fp32.
template <std::uint8_t level>
struct ExpOp {
  static constexpr const char* name = "Exp";
  static constexpr HlSeq seq{level == 0 ? 0u : 4u + 2u * level, level == 0 ? 1u : 1u, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::ExpTmpFactor(ts, reuse); }
  static float eval(float x) {
    if (level == 0) return __builtin_expf(x);
    const float whole = __builtin_floorf(x);
    const float frac = x - whole;
    float term = 1.0f, sum = 1.0f;
    for (std::uint32_t k = 1; k <= level; ++k) {
      term = term * frac / static_cast<float>(k);
      sum += term;
    }
    return __builtin_expf(whole) * sum;
  }
  static constexpr bool kReusesSource = true;  // leaves the fractional part of a float source
  static float reused(float x) { return x - __builtin_floorf(x); }
};
struct LogOp {
  static constexpr const char* name = "Log";
  static constexpr HlSeq seq{0, 1, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::LogTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_logf(x); }
};
struct Log2Op {
  static constexpr const char* name = "Log2";
  static constexpr HlSeq seq{1, 1, 0};  // ln(x) / ln(2)
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::Log2TmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_log2f(x); }
};
struct Log10Op {
  static constexpr const char* name = "Log10";
  static constexpr HlSeq seq{1, 1, 0};  // ln(x) / ln(10)
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::Log10TmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_log10f(x); }
};

}  // namespace sim

NPUKB_HL_UNARY_ALL4(Erf, sim::ErfOp, NPUKB_HF, "half, float", , const ErfConfig& config = defaultErfConfig)
NPUKB_HL_UNARY_ALL4(Erfc, sim::ErfcOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_TMP_COUNT(Digamma, sim::DigammaOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Digamma, sim::DigammaOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_TMP_COUNT(Lgamma, sim::LgammaOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Lgamma, sim::LgammaOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Log, sim::LogOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_WHOLE(Log, sim::LogOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Log2, sim::Log2Op, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Log10, sim::Log10Op, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_WHOLE(Log10, sim::Log10Op, NPUKB_HF, "half, float")

// The high-level Exp, next to the basic Exp<T>(dst, src, count) of vec_unary.h: taylorExpandLevel has no
// default, so Exp<T>(...) keeps selecting the basic instruction.
template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Exp: unsupported data type (half, float)");
  sim::hl_unary<sim::ExpOp<taylorExpandLevel>, T, isReuseSource>(dstLocal, srcLocal, &sharedTmpBuffer, calCount, file, line);
}
template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false, NPUKB_PTR_RET>
inline npukbPtrRet Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                       const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) {
  NPUKB_PTR_CHECK(Exp);
  static_assert(NPUKB_HF, "Exp: unsupported data type (half, float)");
  sim::hl_unary<sim::ExpOp<taylorExpandLevel>, T, isReuseSource>(dstLocal, srcLocal, &sharedTmpBuffer, calCount);
}
template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Exp: unsupported data type (half, float)");
  sim::hl_unary<sim::ExpOp<taylorExpandLevel>, T, isReuseSource>(dstLocal, srcLocal, nullptr, calCount, file, line);
}
template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false, NPUKB_PTR_RET>
inline npukbPtrRet Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const std::uint32_t calCount) {
  NPUKB_PTR_CHECK(Exp);
  static_assert(NPUKB_HF, "Exp: unsupported data type (half, float)");
  sim::hl_unary<sim::ExpOp<taylorExpandLevel>, T, isReuseSource>(dstLocal, srcLocal, nullptr, calCount);
}

// ---- Power ------------------------------------------------------------------------------------------
// Floating types: pow() in fp32 (exp(y ln x) with the sign of a negative base restored for an integer
// exponent, NaN for a negative base and a fractional one). int32_t: exact repeated squaring, wrapping
// modulo 2^32; a negative exponent gives the truncated real result (1 for base 1, +-1 for base -1, else 0).
namespace sim {
template <typename T>
constexpr bool power_types = one_of<T, half, float, std::int32_t>;

inline std::int32_t ipow(std::int32_t base, std::int32_t e) {
  if (e < 0) return base == 1 ? 1 : (base == -1 ? ((e & 1) ? -1 : 1) : 0);
  std::uint32_t r = 1, b = static_cast<std::uint32_t>(base);
  for (std::uint32_t k = static_cast<std::uint32_t>(e); k != 0; k >>= 1) {
    if (k & 1u) r *= b;
    b *= b;
  }
  return static_cast<std::int32_t>(r);
}
template <typename C>
inline C power_of(C a, C b) {
  if constexpr (std::is_same_v<C, float>) return __builtin_powf(a, b);
  else return ipow(a, b);
}
template <typename T>
inline HlSeq power_seq(bool both_tensors) {
  if constexpr (std::is_same_v<T, std::int32_t>) return HlSeq{64, 0, 0};  // 32 square-and-multiply rounds
  else return HlSeq{both_tensors ? 6u : 5u, 2, 0};
}
template <typename T>
inline void power_tt(const LocalTensor<T>& dst, const LocalTensor<T>& base, const LocalTensor<T>& e,
                     const LocalTensor<std::uint8_t>* tmp, std::uint32_t count, const char* file, int line) {
  const HlSrc<T> s[2] = {{&base, "src0Tensor"}, {&e, "src1Tensor"}};
  hl_elementwise("Power", dst, "dstTensor", s, tmp, count,
                 npukb_lib::PowerTmpFactor(true, true, std::is_same_v<T, std::int32_t>, sizeof(T)), power_seq<T>(true),
                 [](hl_compute_t<T> a, hl_compute_t<T> b) { return power_of(a, b); }, file, line);
}
template <typename T>
inline void power_ts(const LocalTensor<T>& dst, const LocalTensor<T>& base, T e, const LocalTensor<std::uint8_t>* tmp,
                     std::uint32_t count, const char* file, int line) {
  const HlSrc<T> s[1] = {{&base, "src0Tensor"}};
  const hl_compute_t<T> y = hl_in<T>(e);
  hl_elementwise("Power", dst, "dstTensor", s, tmp, count,
                 npukb_lib::PowerTmpFactor(true, false, std::is_same_v<T, std::int32_t>, sizeof(T)), power_seq<T>(false),
                 [y](hl_compute_t<T> a) { return power_of(a, y); }, file, line);
}
template <typename T>
inline void power_st(const LocalTensor<T>& dst, T base, const LocalTensor<T>& e, const LocalTensor<std::uint8_t>* tmp,
                     std::uint32_t count, const char* file, int line) {
  const HlSrc<T> s[1] = {{&e, "src1Tensor"}};
  const hl_compute_t<T> x = hl_in<T>(base);
  hl_elementwise("Power", dst, "dstTensor", s, tmp, count,
                 npukb_lib::PowerTmpFactor(false, true, std::is_same_v<T, std::int32_t>, sizeof(T)), power_seq<T>(false),
                 [x](hl_compute_t<T> b) { return power_of(x, b); }, file, line);
}
}  // namespace sim

#define NPUKB_POWER_TEMPLATE \
  template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>
#define NPUKB_POWER_TYPES static_assert(sim::power_types<T>, "Power: unsupported data type (half, float, int32_t)")
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_tt(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::hl_same_size("Power", src0Tensor, "src0Tensor", src1Tensor, "src1Tensor", file, line);
  sim::power_tt(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize(), file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                  std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_tt(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::hl_same_size("Power", src0Tensor, "src0Tensor", src1Tensor, "src1Tensor", file, line);
  sim::power_tt(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_ts(dstTensor, src0Tensor, src1Scalar, &sharedTmpBuffer, calCount, file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_ts(dstTensor, src0Tensor, src1Scalar, &sharedTmpBuffer, src0Tensor.GetSize(), file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar, std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_ts(dstTensor, src0Tensor, src1Scalar, nullptr, calCount, file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_ts(dstTensor, src0Tensor, src1Scalar, nullptr, src0Tensor.GetSize(), file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_st(dstTensor, src0Scalar, src1Tensor, &sharedTmpBuffer, calCount, file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_st(dstTensor, src0Scalar, src1Tensor, &sharedTmpBuffer, src1Tensor.GetSize(), file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor, std::uint32_t calCount) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_st(dstTensor, src0Scalar, src1Tensor, nullptr, calCount, file, line);
}
NPUKB_POWER_TEMPLATE
inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor) { NPUKB_CALLER;
  NPUKB_POWER_TYPES;
  sim::power_st(dstTensor, src0Scalar, src1Tensor, nullptr, src1Tensor.GetSize(), file, line);
}
#undef NPUKB_POWER_TYPES
#undef NPUKB_POWER_TEMPLATE

}  // namespace AscendC
