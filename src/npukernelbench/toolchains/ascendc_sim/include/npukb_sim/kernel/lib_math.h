// npukb_sim/kernel/lib_math.h -- high-level math/activation APIs (Sigmoid, Tanh, Sin, Cos, Erf, Log, Power,
// Gelu, FasterGelu, Silu, Round, Sign, Trunc, Frac, Floor, Ceil, ...). Each computes in float and rounds
// to the element type; the cost model charges a multi-instruction sequence. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"
#include "npukb_sim/kernel/vec_unary.h"  // the basic Exp next to the high-level one

namespace AscendC {
namespace sim {
template <typename T>
constexpr bool hl_types = one_of<T, half, float>;

// A high-level API runs a sequence of vector instructions through temporary buffers, so it reads the
// whole source before its last instruction writes dst: dst may overlap src anywhere (in place, or
// shifted through GetWithOffset) and the result is that of the non-overlapping computation.
template <typename T, typename F>
inline void hl_unary(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint32_t count, double cpr,
                     F f, const char* file, int line) {
  if (count == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T);
  check_local(api, "dst", dst, bytes, true, file, line);
  check_local(api, "src", src, bytes, true, file, line);
  const std::vector<T> in(src.ptr(), src.ptr() + count);
  T* d = dst.ptr();
  for (std::uint32_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<float>(in[i])));
  count_plan(count, 256 / sizeof(T));
  const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
  vec_cost(cpr, static_cast<std::uint32_t>((bytes + 255) / 256), &sp, 1, &dp, 1);
}
inline float sgn(float x) { return x > 0 ? 1.0f : (x < 0 ? -1.0f : 0.0f); }
constexpr double kCostHL = static_cast<double>(npukb::kern::VecCost::HighLevel);
constexpr double kCostSig = static_cast<double>(npukb::kern::VecCost::Sigmoid);
}  // namespace sim

#define NPUKB_HL_UNARY(NAME, COST, EXPR)                                                                               \
  template <typename T, bool isReuseSource = false>                                                                    \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer, \
                   const std::uint32_t calCount) { NPUKB_CALLER;                                                   \
    static_assert(sim::hl_types<T>, #NAME ": unsupported data type (half, float)");                                     \
    (void)sharedTmpBuffer;                                                                                             \
    sim::hl_unary(#NAME, dst, src, calCount, COST, [](float x) -> float { return EXPR; }, file, line);                 \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false>                                                                    \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t calCount) { NPUKB_CALLER; \
    static_assert(sim::hl_types<T>, #NAME ": unsupported data type (half, float)");                                     \
    sim::hl_unary(#NAME, dst, src, calCount, COST, [](float x) -> float { return EXPR; }, file, line);                 \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false>                                                                    \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;                                                                                 \
    static_assert(sim::hl_types<T>, #NAME ": unsupported data type (half, float)");                                     \
    (void)sharedTmpBuffer;                                                                                             \
    sim::hl_unary(#NAME, dst, src, src.GetSize(), COST, [](float x) -> float { return EXPR; }, file, line);            \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false>                                                                    \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src) { NPUKB_CALLER;                           \
    static_assert(sim::hl_types<T>, #NAME ": unsupported data type (half, float)");                                     \
    sim::hl_unary(#NAME, dst, src, src.GetSize(), COST, [](float x) -> float { return EXPR; }, file, line);            \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false, NPUKB_PTR_RET>                                                     \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                        \
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) {            \
    NPUKB_PTR_CHECK(NAME);                                                                                             \
    NAME<T, isReuseSource>(dst, src, sharedTmpBuffer, calCount);                                        \
  }                                                                                                                    \
  template <typename T, bool isReuseSource = false, NPUKB_PTR_RET>                                                     \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t calCount) {        \
    NPUKB_PTR_CHECK(NAME);                                                                                             \
    NAME<T, isReuseSource>(dst, src, calCount);                                                         \
  }

NPUKB_HL_UNARY(Sigmoid, sim::kCostSig, 1.0f / (1.0f + __builtin_expf(-x)))
NPUKB_HL_UNARY(Tanh, sim::kCostHL, __builtin_tanhf(x))
NPUKB_HL_UNARY(Sin, sim::kCostHL, __builtin_sinf(x))
NPUKB_HL_UNARY(Cos, sim::kCostHL, __builtin_cosf(x))
NPUKB_HL_UNARY(Tan, sim::kCostHL, __builtin_tanf(x))
NPUKB_HL_UNARY(Asin, sim::kCostHL, __builtin_asinf(x))
NPUKB_HL_UNARY(Acos, sim::kCostHL, __builtin_acosf(x))
NPUKB_HL_UNARY(Atan, sim::kCostHL, __builtin_atanf(x))
NPUKB_HL_UNARY(Sinh, sim::kCostHL, __builtin_sinhf(x))
NPUKB_HL_UNARY(Cosh, sim::kCostHL, __builtin_coshf(x))
NPUKB_HL_UNARY(Asinh, sim::kCostHL, __builtin_asinhf(x))
NPUKB_HL_UNARY(Acosh, sim::kCostHL, __builtin_acoshf(x))
NPUKB_HL_UNARY(Atanh, sim::kCostHL, __builtin_atanhf(x))
NPUKB_HL_UNARY(Erf, sim::kCostHL, __builtin_erff(x))
NPUKB_HL_UNARY(Erfc, sim::kCostHL, __builtin_erfcf(x))
NPUKB_HL_UNARY(Log, sim::kCostSig, __builtin_logf(x))
NPUKB_HL_UNARY(Log2, sim::kCostSig, __builtin_log2f(x))
NPUKB_HL_UNARY(Log10, sim::kCostSig, __builtin_log10f(x))
NPUKB_HL_UNARY(Round, sim::kCostSig, __builtin_nearbyintf(x))
NPUKB_HL_UNARY(Sign, sim::kCostSig, sim::sgn(x))
NPUKB_HL_UNARY(Trunc, sim::kCostSig, __builtin_truncf(x))
NPUKB_HL_UNARY(Frac, sim::kCostSig, x - __builtin_truncf(x))
NPUKB_HL_UNARY(Floor, sim::kCostSig, __builtin_floorf(x))
NPUKB_HL_UNARY(Ceil, sim::kCostSig, __builtin_ceilf(x))
NPUKB_HL_UNARY(Silu, sim::kCostSig, x / (1.0f + __builtin_expf(-x)))

// The high-level Exp of lib/math (a Taylor expansion of taylorExpandLevel terms on the fractional part
// on hardware; here exp in float, rounded once), next to the basic Exp<T>(dst, src, count) of vec_unary.h:
// taylorExpandLevel has no default, so Exp<T>(...) keeps selecting the basic instruction.
template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::hl_types<T>, "Exp: unsupported data type (half, float)");
  (void)sharedTmpBuffer;
  sim::hl_unary("Exp", dst, src, calCount, sim::kCostSig, [](float x) -> float { return __builtin_expf(x); }, file, line);
}
template <typename T, std::uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::hl_types<T>, "Exp: unsupported data type (half, float)");
  sim::hl_unary("Exp", dst, src, calCount, sim::kCostSig, [](float x) -> float { return __builtin_expf(x); }, file, line);
}

// Gelu (tanh approximation) and FasterGelu (x * sigmoid(1.702 x)).
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                 const std::uint32_t dataSize) { NPUKB_CALLER;
  static_assert(sim::hl_types<T>, "Gelu: unsupported data type (half, float)");
  (void)sharedTmpBuffer;
  sim::hl_unary("Gelu", dst, src, dataSize, sim::kCostHL, [](float x) -> float {
    return x / (1.0f + __builtin_expf(-1.5957691216f * (x + 0.044715f * x * x * x))); }, file, line);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void Gelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dataSize) { NPUKB_CALLER;
  static_assert(sim::hl_types<T>, "Gelu: unsupported data type (half, float)");
  sim::hl_unary("Gelu", dst, src, dataSize, sim::kCostHL, [](float x) -> float {
    return x / (1.0f + __builtin_expf(-1.5957691216f * (x + 0.044715f * x * x * x))); }, file, line);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                       const std::uint32_t dataSize) { NPUKB_CALLER;
  static_assert(sim::hl_types<T>, "FasterGelu: unsupported data type (half, float)");
  (void)sharedTmpBuffer;
  sim::hl_unary("FasterGelu", dst, src, dataSize, sim::kCostSig, [](float x) -> float { return x / (1.0f + __builtin_expf(-1.702f * x)); }, file, line);
}
template <typename T, bool highPrecision = false, bool highPerformance = false>
inline void FasterGelu(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dataSize) { NPUKB_CALLER;
  static_assert(sim::hl_types<T>, "FasterGelu: unsupported data type (half, float)");
  sim::hl_unary("FasterGelu", dst, src, dataSize, sim::kCostSig, [](float x) -> float { return x / (1.0f + __builtin_expf(-1.702f * x)); }, file, line);
}

// Power: tensor^tensor, tensor^scalar, scalar^tensor.
namespace sim {
template <typename T, typename A, typename B>
inline void power_run(const LocalTensor<T>& dst, A a, B b, std::uint32_t count, const char* file, int line) {
  check_count<T>("Power", count, file, line);
  if (count == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T);
  check_local("Power", "dst", dst, bytes, true, file, line);
  std::vector<T> out(count);  // every source element is read before dst is written (dst may overlap a source)
  for (std::uint32_t i = 0; i < count; ++i) out[i] = static_cast<T>(__builtin_powf(static_cast<float>(a(i)), static_cast<float>(b(i))));
  std::memcpy(dst.ptr(), out.data(), bytes);
  count_plan(count, 256 / sizeof(T));
  const npukb::kern::Span dp = vspan(dst, bytes);
  vec_cost(kCostHL, static_cast<std::uint32_t>((bytes + 255) / 256), nullptr, 0, &dp, 1);
}
template <typename T>
inline auto tensor_reader(const LocalTensor<T>& t, std::uint32_t count, const char* what, const char* file, int line) {
  check_local("Power", what, t, static_cast<std::uint64_t>(count) * sizeof(T), true, file, line);
  const T* p = t.ptr();
  return [p](std::uint32_t i) { return p[i]; };
}
}  // namespace sim
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int32_t>, "Power: unsupported data type (half, float, int32_t)");
  (void)sharedTmpBuffer;
  sim::power_run(dst, sim::tensor_reader(src0, calCount, "src0", file, line), sim::tensor_reader(src1, calCount, "src1", file, line), calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int32_t>, "Power: unsupported data type (half, float, int32_t)");
  sim::power_run(dst, sim::tensor_reader(src0, calCount, "src0", file, line), sim::tensor_reader(src1, calCount, "src1", file, line), calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1) { NPUKB_CALLER;
  Power<T, isReuseSource>(dst, src0, src1, src0.GetSize());
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const T& src1,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int32_t>, "Power: unsupported data type (half, float, int32_t)");
  (void)sharedTmpBuffer;
  const T s = src1;
  sim::power_run(dst, sim::tensor_reader(src0, calCount, "src0", file, line), [s](std::uint32_t) { return s; }, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const T& src1, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int32_t>, "Power: unsupported data type (half, float, int32_t)");
  const T s = src1;
  sim::power_run(dst, sim::tensor_reader(src0, calCount, "src0", file, line), [s](std::uint32_t) { return s; }, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const T& src0, const LocalTensor<T>& src1,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int32_t>, "Power: unsupported data type (half, float, int32_t)");
  (void)sharedTmpBuffer;
  const T s = src0;
  sim::power_run(dst, [s](std::uint32_t) { return s; }, sim::tensor_reader(src1, calCount, "src1", file, line), calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Power(const LocalTensor<T>& dst, const T& src0, const LocalTensor<T>& src1, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int32_t>, "Power: unsupported data type (half, float, int32_t)");
  const T s = src0;
  sim::power_run(dst, [s](std::uint32_t) { return s; }, sim::tensor_reader(src1, calCount, "src1", file, line), calCount, file, line);
}

}  // namespace AscendC
