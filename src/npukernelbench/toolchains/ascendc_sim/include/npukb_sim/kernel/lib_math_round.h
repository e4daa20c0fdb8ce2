// npukb_sim/kernel/lib_math_round.h -- rounding and remainder APIs of the library (half, float), every
// documented overload: Round (to the nearest integer, halves to even), Floor, Ceil, Trunc (towards 0),
// Frac (x - Trunc(x), keeping x's sign), Sign (-1, 0 or 1; 0 for +-0 and NaN, as documented) and Fmod
// (the remainder of src0 / src1 with src0's sign, C's fmod). Clean-room part of ascendc-sim (included by
// lib_math.h).
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/lib_math.h"

namespace AscendC {
namespace sim {

struct RoundOp {
  static constexpr const char* name = "Round";
  static constexpr HlSeq seq{2, 0, 0};  // cast to int32 (CAST_RINT) and back
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::RoundTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_nearbyintf(x); }  // round-half-to-even (default rounding)
};
struct FloorOp {
  static constexpr const char* name = "Floor";
  static constexpr HlSeq seq{2, 0, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::FloorTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_floorf(x); }
};
struct CeilOp {
  static constexpr const char* name = "Ceil";
  static constexpr HlSeq seq{2, 0, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::CeilTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_ceilf(x); }
};
struct TruncOp {
  static constexpr const char* name = "Trunc";
  static constexpr HlSeq seq{2, 0, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::TruncTmpFactor(ts, reuse); }
  static float eval(float x) { return __builtin_truncf(x); }
};
struct FracOp {
  static constexpr const char* name = "Frac";
  static constexpr HlSeq seq{3, 0, 0};
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::FracTmpFactor(ts, reuse); }
  static float eval(float x) { return x - __builtin_truncf(x); }
};
struct SignOp {
  static constexpr const char* name = "Sign";
  static constexpr HlSeq seq{5, 0, 0};  // two compares, two selects, one add
  static constexpr npukb_lib::TmpFactor factor(std::uint32_t ts, bool reuse) { return npukb_lib::SignTmpFactor(ts, reuse); }
  static float eval(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); }
};

template <typename T>
inline void fmod_run(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                     const LocalTensor<std::uint8_t>* tmp, std::uint32_t count, const char* file, int line) {
  const HlSrc<T> s[2] = {{&a, "src0Tensor"}, {&b, "src1Tensor"}};
  hl_elementwise("Fmod", dst, "dstTensor", s, tmp, count, npukb_lib::FmodTmpFactor(sizeof(T), false), HlSeq{5, 0, 1},
                 [](float x, float y) { return __builtin_fmodf(x, y); }, file, line);
}

}  // namespace sim

NPUKB_HL_UNARY_TMP_COUNT(Round, sim::RoundOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Round, sim::RoundOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_TMP_COUNT(Floor, sim::FloorOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Floor, sim::FloorOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_TMP_COUNT(Ceil, sim::CeilOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_COUNT(Ceil, sim::CeilOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Trunc, sim::TruncOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Frac, sim::FracOp, NPUKB_HF, "half, float")
NPUKB_HL_UNARY_ALL4(Sign, sim::SignOp, NPUKB_HF, "half, float")

#define NPUKB_FMOD_TEMPLATE \
  template <typename T, bool isReuseSource = false, const FmodConfig& config = DEFAULT_FMOD_CONFIG>
NPUKB_FMOD_TEMPLATE
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                 const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Fmod: unsupported data type (half, float)");
  sim::fmod_run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, file, line);
}
NPUKB_FMOD_TEMPLATE
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                 const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Fmod: unsupported data type (half, float)");
  sim::hl_same_size("Fmod", src0Tensor, "src0Tensor", src1Tensor, "src1Tensor", file, line);
  sim::fmod_run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize(), file, line);
}
NPUKB_FMOD_TEMPLATE
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                 const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Fmod: unsupported data type (half, float)");
  sim::fmod_run(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, file, line);
}
NPUKB_FMOD_TEMPLATE
inline void Fmod(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "Fmod: unsupported data type (half, float)");
  sim::hl_same_size("Fmod", src0Tensor, "src0Tensor", src1Tensor, "src1Tensor", file, line);
  sim::fmod_run(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), file, line);
}
#undef NPUKB_FMOD_TEMPLATE

}  // namespace AscendC
