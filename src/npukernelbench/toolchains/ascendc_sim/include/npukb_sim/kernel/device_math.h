// npukb_sim/kernel/device_math.h -- the scalar math the device compiler makes visible in kernel code.
// Clean-room part of ascendc-sim.
//
// Real kernels call C math functions on scalars unqualified without including any header (`sqrt(var)`,
// `floor(x)`, `tanh(x)`, `expf(x)`, `abs(x)` on a float). Here they are function templates in the global
// namespace, constrained to arithmetic arguments, so that
//  - <cmath> / <math.h> still coexist: for an argument of the library's own type the library's
//    non-template function wins overload resolution, for other types the template is the better match
//    (the same value: the argument converted as C converts it);
//  - a kernel may still declare its own function of such a name (`extern "C" __global__ __aicore__ void
//    sqrt(GM_ADDR x, ...)`, an entry named after its operator, or `float exp(float)`): a non-template
//    function beside a template is an overload, not a redeclaration.
// Floating arguments (half, bfloat16_t, float, double) keep their type; the f-suffixed forms compute in
// float from any arithmetic argument. Integer arguments of the plain forms are left to the C library's
// functions where a kernel includes it (an integer template here would be ambiguous with <cmath>'s own
// in namespace std, which <cmath> fills with `using ::sqrt;`).
#pragma once
#include <type_traits>

#include "npukb_sim/kernel/types.h"

namespace npukb {
namespace dmath {
// The device's scalar floating types; a math function returns its argument's type and computes in
// float (double for a double argument).
template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <typename T>
constexpr bool kArith = kFloating<T> || std::is_integral_v<T>;
template <typename T>
using Calc = std::conditional_t<std::is_same_v<T, double> || std::is_same_v<T, long double>, double, float>;
}  // namespace dmath
}  // namespace npukb

#define NPUKB_DEVICE_MATH1(NAME, FN, FNF)                                                                  \
  template <typename T, std::enable_if_t<npukb::dmath::kFloating<T>, int> = 0>                          \
  inline T NAME(T x) {                                                                                  \
    if constexpr (std::is_same_v<npukb::dmath::Calc<T>, double>) {                                      \
      return static_cast<T>(FN(static_cast<double>(x)));                                                \
    } else {                                                                                            \
      return static_cast<T>(FNF(static_cast<float>(x)));                                                \
    }                                                                                                   \
  }                                                                                                     \
  template <typename T, std::enable_if_t<npukb::dmath::kArith<T>, int> = 0>                             \
  inline float NAME##f(T x) {                                                                           \
    return FNF(static_cast<float>(x));                                                                  \
  }

#define NPUKB_DEVICE_MATH2(NAME, FN, FNF)                                                                  \
  template <typename T, std::enable_if_t<npukb::dmath::kFloating<T>, int> = 0>                          \
  inline T NAME(T x, T y) {                                                                             \
    if constexpr (std::is_same_v<npukb::dmath::Calc<T>, double>) {                                      \
      return static_cast<T>(FN(static_cast<double>(x), static_cast<double>(y)));                        \
    } else {                                                                                            \
      return static_cast<T>(FNF(static_cast<float>(x), static_cast<float>(y)));                         \
    }                                                                                                   \
  }                                                                                                     \
  template <typename T, typename U,                                                                     \
            std::enable_if_t<npukb::dmath::kArith<T> && npukb::dmath::kArith<U>, int> = 0>              \
  inline float NAME##f(T x, U y) {                                                                      \
    return FNF(static_cast<float>(x), static_cast<float>(y));                                           \
  }

NPUKB_DEVICE_MATH1(sqrt, __builtin_sqrt, __builtin_sqrtf)
NPUKB_DEVICE_MATH1(exp, __builtin_exp, __builtin_expf)
NPUKB_DEVICE_MATH1(exp2, __builtin_exp2, __builtin_exp2f)
NPUKB_DEVICE_MATH1(expm1, __builtin_expm1, __builtin_expm1f)
NPUKB_DEVICE_MATH1(log, __builtin_log, __builtin_logf)
NPUKB_DEVICE_MATH1(log2, __builtin_log2, __builtin_log2f)
NPUKB_DEVICE_MATH1(log10, __builtin_log10, __builtin_log10f)
NPUKB_DEVICE_MATH1(log1p, __builtin_log1p, __builtin_log1pf)
NPUKB_DEVICE_MATH1(floor, __builtin_floor, __builtin_floorf)
NPUKB_DEVICE_MATH1(ceil, __builtin_ceil, __builtin_ceilf)
NPUKB_DEVICE_MATH1(round, __builtin_round, __builtin_roundf)
NPUKB_DEVICE_MATH1(trunc, __builtin_trunc, __builtin_truncf)
NPUKB_DEVICE_MATH1(fabs, __builtin_fabs, __builtin_fabsf)
NPUKB_DEVICE_MATH1(sin, __builtin_sin, __builtin_sinf)
NPUKB_DEVICE_MATH1(cos, __builtin_cos, __builtin_cosf)
NPUKB_DEVICE_MATH1(tan, __builtin_tan, __builtin_tanf)
NPUKB_DEVICE_MATH1(asin, __builtin_asin, __builtin_asinf)
NPUKB_DEVICE_MATH1(acos, __builtin_acos, __builtin_acosf)
NPUKB_DEVICE_MATH1(atan, __builtin_atan, __builtin_atanf)
NPUKB_DEVICE_MATH1(sinh, __builtin_sinh, __builtin_sinhf)
NPUKB_DEVICE_MATH1(cosh, __builtin_cosh, __builtin_coshf)
NPUKB_DEVICE_MATH1(tanh, __builtin_tanh, __builtin_tanhf)
NPUKB_DEVICE_MATH1(erf, __builtin_erf, __builtin_erff)
NPUKB_DEVICE_MATH2(pow, __builtin_pow, __builtin_powf)
NPUKB_DEVICE_MATH2(atan2, __builtin_atan2, __builtin_atan2f)
NPUKB_DEVICE_MATH2(fmod, __builtin_fmod, __builtin_fmodf)
NPUKB_DEVICE_MATH2(fmin, __builtin_fmin, __builtin_fminf)
NPUKB_DEVICE_MATH2(fmax, __builtin_fmax, __builtin_fmaxf)

#undef NPUKB_DEVICE_MATH1
#undef NPUKB_DEVICE_MATH2

// abs of a floating value (C's abs(int) / labs stay the integer forms, from the C library where a kernel
// includes it).
template <typename T, std::enable_if_t<npukb::dmath::kFloating<T>, int> = 0>
inline T abs(T x) { return x < T(0) ? T(-x) : x; }
