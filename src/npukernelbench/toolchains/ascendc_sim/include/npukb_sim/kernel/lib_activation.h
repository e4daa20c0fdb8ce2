// npukb_sim/kernel/lib_activation.h -- the elementwise activations of the library (SIMD-API/高阶API/激活函数),
// every documented overload for Atlas A2 / A3:
//   Sigmoid   1 / (1 + e^-x)
//   Silu      x / (1 + e^-x)
//   Swish     x / (1 + e^(beta x)), as the doc's example defines beta (beta = -1.702 gives x * sigmoid(1.702 x))
//   Gelu      x / (1 + e^(-1.5957691216 (x + 0.044715 x^3)))  (the tanh form)
//   FasterGelu   x / (1 + e^(-1.702 x))
//   FasterGeluV2 x * (sgn(x) * (a * (min(|x| c, -b) + b)^2 + 0.5) + 0.5), a = -0.1444, b = -1.769, c = 0.7071
//   GeGLU     src0 * Gelu(src1); ReGlu src0 * max(src1, 0); SwiGLU src0 * src1 / (1 + e^(-beta src1))
// (the GLU forms activate the second source, as the docs' examples show). Computed in fp32, rounded once;
// highPrecision / highPerformance change the instruction sequence priced, not the value. Clean-room part
// of ascendc-sim (included by lib_math.h).
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/lib_math.h"

namespace AscendC {
namespace sim {

inline float hl_sigmoid(float x) { return 1.0f / (1.0f + __builtin_expf(-x)); }
inline float hl_gelu(float x) { return x / (1.0f + __builtin_expf(-1.5957691216f * (x + 0.044715f * x * x * x))); }
inline float hl_faster_gelu(float x) { return x / (1.0f + __builtin_expf(-1.702f * x)); }
inline float hl_faster_gelu_v2(float x) {
  const float a = -0.1444f, b = -1.769f, c = 0.7071f;
  const float sgn = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
  float t = __builtin_fabsf(x) * c;
  if (t > -b) t = -b;
  return x * (sgn * (a * (t + b) * (t + b) + 0.5f) + 0.5f);
}

struct SigmoidOp {
  static constexpr const char* name = "Sigmoid";
  static constexpr HlSeq seq{2, 1, 1};  // Muls(-1), Exp, Adds(1), Div
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::SigmoidTmpFactor(ts, reuse); }
  static float eval(float x) { return hl_sigmoid(x); }
};
struct SiluOp {
  static constexpr const char* name = "Silu";
  static constexpr HlSeq seq{2, 1, 1};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::SiluTmpFactor(ts, reuse); }
  static float eval(float x) { return x * hl_sigmoid(x); }
};

// The Gelu family: highPerformance drops the refinement steps (fewer instructions), highPrecision on half
// keeps the whole sequence in fp32 (the simulator always computes in fp32).
template <bool highPerformance>
constexpr HlSeq gelu_seq(std::uint32_t simple) { return HlSeq{highPerformance ? simple - 2 : simple, 1, 1}; }

template <typename T, bool highPerformance, typename F>
inline void gelu_run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp,
                     std::uint32_t count, std::uint32_t simple, F f, const char* file, int line) {
  const HlSrc<T> s[1] = {{&src, "srcLocal"}};
  hl_elementwise(api, dst, "dstLocal", s, tmp, count, npukb_lib::GeluTmpFactor(sizeof(T), false), gelu_seq<highPerformance>(simple),
                 f, file, line);
}

template <typename T>
inline void glu_run(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                    const LocalTensor<std::uint8_t>* tmp, std::uint32_t count, npukb_lib::TmpFactor factor, HlSeq seq,
                    float (*act)(float, float), float beta, const char* file, int line) {
  const HlSrc<T> s[2] = {{&a, "srcTensor0"}, {&b, "srcTensor1"}};
  hl_elementwise(api, dst, "dstTensor", s, tmp, count, factor, seq,
                 [act, beta](float x0, float x1) { return x0 * act(x1, beta); }, file, line);
}
inline float glu_gelu(float x, float) { return hl_gelu(x); }
inline float glu_relu(float x, float) { return x > 0.0f ? x : 0.0f; }
inline float glu_swish(float x, float beta) { return x / (1.0f + __builtin_expf(-beta * x)); }

template <typename T>
constexpr bool reglu_types = one_of<T, half, bfloat16_t, float>;
}  // namespace sim

// ---- Sigmoid, Silu, Swish -----------------------------------------------------------------------------
NPUKB_HL_UNARY_ALL4(Sigmoid, sim::SigmoidOp, NPUKB_HF, "half, float")

template <typename T, bool isReuseSource = false>
inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, std::uint32_t dataSize) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Silu: unsupported data type (half, float)");
  sim::hl_unary<sim::SiluOp, T, isReuseSource>(dstLocal, srcLocal, nullptr, dataSize, file, line);
}
template <typename T, bool isReuseSource = false, NPUKB_PTR_RET>
inline npukbPtrRet Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, std::uint32_t dataSize) {
  NPUKB_PTR_CHECK(Silu);
  static_assert(NPUKB_HF, "Silu: unsupported data type (half, float)");
  sim::hl_unary<sim::SiluOp, T, isReuseSource>(dstLocal, srcLocal, nullptr, dataSize);
}

template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, std::uint32_t dataSize, const T scalarValue) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Swish: unsupported data type (half, float)");
  const sim::HlSrc<T> s[1] = {{&srcLocal, "srcLocal"}};
  const float beta = static_cast<float>(scalarValue);
  sim::hl_elementwise("Swish", dstLocal, "dstLocal", s, nullptr, dataSize, npukb_lib::SwishTmpFactor(sizeof(T), false),
                      sim::HlSeq{2, 1, 1}, [beta](float x) { return x / (1.0f + __builtin_expf(beta * x)); }, file, line);
}

// ---- Gelu, FasterGelu, FasterGeluV2 -------------------------------------------------------------------
#define NPUKB_GELU_API(NAME, SIMPLE, FN)                                                                                 \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                                       \
  inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                                      \
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t dataSize) { NPUKB_CALLER;  \
    static_assert(NPUKB_HF, #NAME ": unsupported data type (half, float)");                                             \
    sim::gelu_run<T, highPerformance>(#NAME, dstLocal, srcLocal, &sharedTmpBuffer, dataSize, SIMPLE,                    \
                                      [](float x) { return FN(x); }, file, line);                                      \
  }                                                                                                                     \
  template <typename T, bool highPrecision = false, bool highPerformance = false>                                       \
  inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const std::uint32_t dataSize) { NPUKB_CALLER;                                                                                  \
    static_assert(NPUKB_HF, #NAME ": unsupported data type (half, float)");                                             \
    sim::gelu_run<T, highPerformance>(#NAME, dstLocal, srcLocal, nullptr, dataSize, SIMPLE,                             \
                                      [](float x) { return FN(x); }, file, line);                                      \
  }
NPUKB_GELU_API(Gelu, 7, sim::hl_gelu)
NPUKB_GELU_API(FasterGelu, 3, sim::hl_faster_gelu)
NPUKB_GELU_API(FasterGeluV2, 12, sim::hl_faster_gelu_v2)
#undef NPUKB_GELU_API

// ---- GeGLU, ReGlu, SwiGLU -----------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "GeGLU: unsupported data type (half, float)");
  sim::glu_run("GeGLU", dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount, npukb_lib::GeGLUTmpFactor(sizeof(T), false),
               sim::HlSeq{8, 1, 1}, sim::glu_gelu, 0.0f, file, line);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "GeGLU: unsupported data type (half, float)");
  sim::hl_same_size("GeGLU", srcTensor0, "srcTensor0", srcTensor1, "srcTensor1", file, line);
  sim::glu_run("GeGLU", dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, srcTensor0.GetSize(),
               npukb_lib::GeGLUTmpFactor(sizeof(T), false), sim::HlSeq{8, 1, 1}, sim::glu_gelu, 0.0f, file, line);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "GeGLU: unsupported data type (half, float)");
  sim::glu_run("GeGLU", dstTensor, srcTensor0, srcTensor1, nullptr, calCount, npukb_lib::GeGLUTmpFactor(sizeof(T), false),
               sim::HlSeq{8, 1, 1}, sim::glu_gelu, 0.0f, file, line);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "GeGLU: unsupported data type (half, float)");
  sim::hl_same_size("GeGLU", srcTensor0, "srcTensor0", srcTensor1, "srcTensor1", file, line);
  sim::glu_run("GeGLU", dstTensor, srcTensor0, srcTensor1, nullptr, srcTensor0.GetSize(), npukb_lib::GeGLUTmpFactor(sizeof(T), false),
               sim::HlSeq{8, 1, 1}, sim::glu_gelu, 0.0f, file, line);
}

template <typename T, bool isReuseSource = false>
inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::reglu_types<T>, "ReGlu: unsupported data type (half, bfloat16_t, float)");
  sim::glu_run("ReGlu", dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount, npukb_lib::ReGluTmpFactor(sizeof(T), false),
               sim::HlSeq{2, 0, 0}, sim::glu_relu, 0.0f, file, line);
}
template <typename T, bool isReuseSource = false>
inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                  const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::reglu_types<T>, "ReGlu: unsupported data type (half, bfloat16_t, float)");
  sim::glu_run("ReGlu", dstTensor, srcTensor0, srcTensor1, nullptr, calCount, npukb_lib::ReGluTmpFactor(sizeof(T), false),
               sim::HlSeq{2, 0, 0}, sim::glu_relu, 0.0f, file, line);
}

template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "SwiGLU: unsupported data type (half, float)");
  sim::glu_run("SwiGLU", dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount, npukb_lib::SwiGLUTmpFactor(sizeof(T), false),
               sim::HlSeq{3, 1, 1}, sim::glu_swish, scalarValue, file, line);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "SwiGLU: unsupported data type (half, float)");
  sim::hl_same_size("SwiGLU", srcTensor0, "srcTensor0", srcTensor1, "srcTensor1", file, line);
  sim::glu_run("SwiGLU", dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, srcTensor0.GetSize(),
               npukb_lib::SwiGLUTmpFactor(sizeof(T), false), sim::HlSeq{3, 1, 1}, sim::glu_swish, scalarValue, file, line);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0, const LocalTensor<T>& srcTensor1,
                   const float& scalarValue, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "SwiGLU: unsupported data type (half, float)");
  sim::glu_run("SwiGLU", dstTensor, srcTensor0, srcTensor1, nullptr, calCount, npukb_lib::SwiGLUTmpFactor(sizeof(T), false),
               sim::HlSeq{3, 1, 1}, sim::glu_swish, scalarValue, file, line);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1, const float& scalarValue) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "SwiGLU: unsupported data type (half, float)");
  sim::hl_same_size("SwiGLU", srcTensor0, "srcTensor0", srcTensor1, "srcTensor1", file, line);
  sim::glu_run("SwiGLU", dstTensor, srcTensor0, srcTensor1, nullptr, srcTensor0.GetSize(), npukb_lib::SwiGLUTmpFactor(sizeof(T), false),
               sim::HlSeq{3, 1, 1}, sim::glu_swish, scalarValue, file, line);
}

}  // namespace AscendC
