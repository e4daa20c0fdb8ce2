// npukb_sim/kernel/lib_math_trig.h -- the trigonometric and hyperbolic library APIs: Sin, Cos, Tan, Asin,
// Acos, Atan, Sinh, Cosh, Tanh, Asinh, Acosh, Atanh (half, float), every documented overload. Computed
// in fp32 with the C library's function; inputs outside an API's documented domain (Asin / Acos outside
// [-1, 1], Acosh below 1, ...) give that function's value (NaN, inf): the docs call the device's result
// there invalid. Sin, Cos and Tan on A2 / A3 take inputs in [-65504, 65504]: a larger magnitude is
// reported as a warning. Clean-room part of ascendc-sim (included by lib_math.h).
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/lib_math.h"

namespace AscendC {
namespace sim {

struct SinOp {
  static constexpr const char* name = "Sin";
  static constexpr HlSeq seq{14, 0, 0};  // range reduction by pi, sign, odd polynomial
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::SinTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_sinf(x); }
  static constexpr bool kReusesSource = true;  // leaves the range-reduced argument in a float source
  static float reused(float x) { return x - __builtin_nearbyintf(x * 0.31830988618f) * 3.14159265359f; }
  static constexpr float kLimit = 65504.0f;
};
struct CosOp {
  static constexpr const char* name = "Cos";
  static constexpr HlSeq seq{15, 0, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::CosTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_cosf(x); }
  static constexpr bool kReusesSource = true;
  static float reused(float x) { return SinOp::reused(x + 1.57079632679f); }
  static constexpr float kLimit = 65504.0f;
};
struct TanOp {
  static constexpr const char* name = "Tan";
  static constexpr HlSeq seq{20, 0, 1};  // sin and cos polynomials of the reduced argument, one division
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::TanTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_tanf(x); }
  static constexpr float kLimit = 65504.0f;
};
struct AsinOp {
  static constexpr const char* name = "Asin";
  static constexpr HlSeq seq{16, 1, 0};  // polynomial near 0, sqrt(1 - |x|) branch, select
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::AsinTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_asinf(x); }
};
struct AcosOp {
  static constexpr const char* name = "Acos";
  static constexpr HlSeq seq{17, 1, 0};  // pi / 2 - asin(x)
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::AcosTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_acosf(x); }
};
struct AtanOp {
  static constexpr const char* name = "Atan";
  static constexpr HlSeq seq{16, 0, 1};  // 1 / x beyond 1, Taylor series, select
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::AtanTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_atanf(x); }
};
struct SinhOp {
  static constexpr const char* name = "Sinh";
  static constexpr HlSeq seq{3, 2, 0};  // (e^x - e^-x) / 2
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::SinhTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_sinhf(x); }
};
struct CoshOp {
  static constexpr const char* name = "Cosh";
  static constexpr HlSeq seq{3, 2, 0};  // (e^x + e^-x) / 2
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::CoshTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_coshf(x); }
};
struct TanhOp {
  static constexpr const char* name = "Tanh";
  static constexpr HlSeq seq{4, 1, 1};  // (e^2x - 1) / (e^2x + 1), clamped
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::TanhTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_tanhf(x); }
};
struct AsinhOp {
  static constexpr const char* name = "Asinh";
  static constexpr HlSeq seq{5, 2, 0};  // sign(x) ln(|x| + sqrt(x^2 + 1))
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::AsinhTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_asinhf(x); }
};
struct AcoshOp {
  static constexpr const char* name = "Acosh";
  static constexpr HlSeq seq{3, 2, 0};  // ln(x + sqrt(x^2 - 1))
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::AcoshTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_acoshf(x); }
};
struct AtanhOp {
  static constexpr const char* name = "Atanh";
  static constexpr HlSeq seq{3, 1, 1};  // ln((1 + x) / (1 - x)) / 2
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::AtanhTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_atanhf(x); }
};

}  // namespace sim

NPUKB_HL_UNARY_ALL4(Sin, sim::SinOp, NPUKB_HF, "half, float", , const SinConfig& config = defaultSinConfig)
NPUKB_HL_UNARY_ALL4(Cos, sim::CosOp, NPUKB_HF, "half, float", , const CosConfig& config = defaultCosConfig)
NPUKB_HL_UNARY_ALL4(Tan, sim::TanOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Asin, sim::AsinOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Acos, sim::AcosOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Atan, sim::AtanOp, NPUKB_HF, "half, float", , const AtanConfig& config = defaultAtanConfig)
NPUKB_HL_UNARY_ALL4(Sinh, sim::SinhOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Cosh, sim::CoshOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Tanh, sim::TanhOp, NPUKB_HF, "half, float", , const TanhConfig& config = DEFAULT_TANH_CONFIG)
NPUKB_HL_UNARY_ALL4(Asinh, sim::AsinhOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Acosh, sim::AcoshOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Atanh, sim::AtanhOp, NPUKB_HF, "half, float")

}  // namespace AscendC
