// npukb_sim/kernel/vec_ternary.h -- composite vector APIs that also read dst: FusedMulAdd (dst = src0 *
// dst + src1), MulAddRelu (its Relu), MulAddDst (dst = src0 * src1 + dst; half sources may accumulate
// into a float dst) and Axpy (dst = src * scalar + dst; a half src may accumulate into a float dst).
// The multiply-add rounds once (computed in float, fma). With half sources and a float dst a repeat
// covers 64 elements, and dst may not overlap the sources (documented; reported as a violation).
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/vec_drivers.h"

namespace AscendC {

namespace sim {
template <typename T, typename F>
inline void ternary_count(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                          std::int32_t count, F f, const char* file, int line) {
  check_count<T>(api, count, file, line);
  if (count == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T);
  check_local(api, "dst", dst, bytes, true, file, line);
  check_local(api, "src0", a, bytes, true, file, line);
  check_local(api, "src1", b, bytes, true, file, line);
  const T* d = dst.ptr();
  const T* x = a.ptr();
  const T* y = b.ptr();
  per_repeat(dst.ptr(), static_cast<std::uint64_t>(count), 256 / sizeof(T), [&](std::uint64_t i) { return f(d[i], x[i], y[i]); });
  count_plan(static_cast<std::uint64_t>(count), 256 / sizeof(T));
  const npukb::kern::Span sp[3] = {vspan(a, bytes), vspan(b, bytes), vspan(dst, bytes)};
  const npukb::kern::Span dp = vspan(dst, bytes);
  vec_cost(kCostSimple * 2, static_cast<std::uint32_t>((bytes + 255) / 256), sp, 3, &dp, 1);
}
template <typename T, typename F>
inline void ternary_mask(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                         bool isSetMask, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                         const BinaryRepeatParams& p, F f, const char* file, int line) {
  elementwise_mask<true>(api, dst, a, b, isSetMask, bits, cont, repeat, p, kCostSimple * 2, f, file, line);
}

// Widening accumulation (half sources, float dst) does not allow dst to overlap a source.
template <typename T, typename U>
inline void check_no_overlap(const char* api, const LocalTensor<T>& dst, std::uint64_t dbytes, const LocalTensor<U>& src,
                             std::uint64_t sbytes, const char* what, const char* file, int line) {
  if constexpr (!std::is_same_v<T, U>) forbid_overlap(api, dst, dbytes, src, sbytes, what, file, line);
}
}  // namespace sim

// ---- FusedMulAdd, MulAddRelu: same type throughout ------------------------------------------------
#define NPUKB_TERNARY(NAME, EXPR)                                                                                  \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::int32_t& count) { NPUKB_CALLER;                                                   \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>>(sim::lite(dst), sim::lite(src0), sim::lite(src1), count);                                          \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_count(#NAME, dst, src0, src1, count,                                                               \
                       [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                        \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);      \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_mask(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTime.value, repeatParams,                   \
                      [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                         \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);      \
    } else {                                                                                                            \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_mask(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTime.value, repeatParams,             \
                      [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                         \
    }                                                                                                                   \
  }

// The fused multiply-add rounds once (float arithmetic for half, fma for float).
NPUKB_TERNARY(FusedMulAdd, __builtin_fmaf(sim::tofl(a), sim::tofl(d), sim::tofl(b)))
NPUKB_TERNARY(MulAddRelu, sim::relu_of<float>(__builtin_fmaf(sim::tofl(a), sim::tofl(d), sim::tofl(b))))
// FusedMulAddRelu: the name of MulAddRelu before CANN 8.5 (the same instruction).
NPUKB_TERNARY(FusedMulAddRelu, sim::relu_of<float>(__builtin_fmaf(sim::tofl(a), sim::tofl(d), sim::tofl(b))))
#undef NPUKB_TERNARY

// ---- MulAddDst: dst (T) = src0 (U) * src1 (U) + dst ------------------------------------------------
namespace sim {
template <typename T, typename U>
constexpr bool mad_ok = (std::is_same_v<T, half> && std::is_same_v<U, half>) || (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                        (std::is_same_v<T, float> && std::is_same_v<U, half>);
template <typename T, typename U>
inline T mul_add_dst(T d, U a, U b) { return static_cast<T>(__builtin_fmaf(tofl(a), tofl(b), tofl(d))); }

template <typename T, typename U>
inline void mul_add_dst_count(const LocalTensor<T>& dst, const LocalTensor<U>& a, const LocalTensor<U>& b, long long count,
                              const char* file, int line) {
  if constexpr (std::is_same_v<T, U>) {
    ternary_count("MulAddDst", dst, a, b, static_cast<std::int32_t>(count), [](T d, U x, U y) -> T { return mul_add_dst<T, U>(d, x, y); },
                  file, line);
  } else {
    mixed_count<true>("MulAddDst", dst, a, b, count, kCostSimple * 2, [](T d, U x, U y) -> T { return mul_add_dst<T, U>(d, x, y); },
                      file, line, true);
  }
}
template <typename T, typename U>
inline void mul_add_dst_mask(const LocalTensor<T>& dst, const LocalTensor<U>& a, const LocalTensor<U>& b, bool isSetMask,
                             const std::uint64_t* bits, std::uint64_t cont, long long repeat, const BinaryRepeatParams& p,
                             const char* file, int line) {
  if constexpr (std::is_same_v<T, U>) {
    ternary_mask("MulAddDst", dst, a, b, isSetMask, bits, cont, repeat, p, [](T d, U x, U y) -> T { return mul_add_dst<T, U>(d, x, y); },
                 file, line);
  } else {
    mixed_mask<true>("MulAddDst", dst, a, b, isSetMask, bits, cont, repeat, p, kCostSimple * 2,
                     [](T d, U x, U y) -> T { return mul_add_dst<T, U>(d, x, y); }, file, line, true);
  }
}
}  // namespace sim

template <typename T, typename U>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const std::int32_t& count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    MulAddDst<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(src0), sim::lite(src1), count);
  } else {
    static_assert(sim::mad_ok<T, U>, "MulAddDst: supported (dst, src) types are (half, half), (float, float), (float, half)");
    sim::mul_add_dst_count(dst, src0, src1, count, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const std::uint64_t mask[],
                      sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    MulAddDst<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::mad_ok<T, U>, "MulAddDst: supported (dst, src) types are (half, half), (float, float), (float, half)");
    sim::mul_add_dst_mask(dst, src0, src1, isSetMask, mask, 0, repeatTime.value, repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, std::uint64_t mask,
                      sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    MulAddDst<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::mad_ok<T, U>, "MulAddDst: supported (dst, src) types are (half, half), (float, float), (float, half)");
    sim::mul_add_dst_mask(dst, src0, src1, isSetMask, nullptr, mask, repeatTime.value, repeatParams, file, line);
  }
}

// ---- Axpy: dst = src * scalar + dst ------------------------------------------------------------
namespace sim {
template <typename T, typename U>
constexpr bool axpy_ok = mad_ok<T, U>;

template <typename T, typename U>
inline void axpy_mask(const LocalTensor<T>& dst, const LocalTensor<U>& src, float s, bool isSetMask, const std::uint64_t* bits,
                      std::uint64_t cont, long long repeat, const UnaryRepeatParams& p, const char* file, int line) {
  const std::uint32_t w = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  const Plan pl = make_plan("Axpy", isSetMask, bits, cont, repeat, 256 / w, file, line);
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstBlkStride, p.dstRepStride), os = opnd(src, p.srcBlkStride, p.srcRepStride);
  check_local("Axpy", "dst", dst, od.extent(pl), true, file, line);
  check_local("Axpy", "src", src, os.extent(pl), true, file, line);
  check_no_overlap("Axpy", dst, od.extent(pl), src, os.extent(pl), "src", file, line);
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    std::uint8_t* pd = od.p + od.off(r, k);
    out.put(r, pd, static_cast<T>(static_cast<float>(ld<U>(os.p + os.off(r, k))) * s + static_cast<float>(ld<T>(pd))));
  });
  out.flush();
  const npukb::kern::Span sp = vspan(src, os.extent(pl)), dp = vspan(dst, od.extent(pl));
  vec_cost(kCostSimple * 2, pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim

template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const std::int32_t& count) { NPUKB_CALLER;
  static_assert(sim::axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  sim::check_count<T>("Axpy", count, file, line);
  if (count == 0) return;
  const std::uint64_t db = static_cast<std::uint64_t>(count) * sizeof(T), sb = static_cast<std::uint64_t>(count) * sizeof(U);
  sim::check_local("Axpy", "dst", dst, db, true, file, line);
  sim::check_local("Axpy", "src", src, sb, true, file, line);
  sim::check_no_overlap("Axpy", dst, db, src, sb, "src", file, line);
  const T* d = dst.ptr();
  const U* x = src.ptr();
  const float s = static_cast<float>(scalarValue);
  sim::per_repeat(dst.ptr(), static_cast<std::uint64_t>(count), 64,
                  [&](std::uint64_t i) { return static_cast<T>(static_cast<float>(x[i]) * s + static_cast<float>(d[i])); });
  sim::count_plan(static_cast<std::uint64_t>(count), 64);
  const npukb::kern::Span sp[2] = {sim::vspan(src, sb), sim::vspan(dst, db)};
  const npukb::kern::Span dp = sim::vspan(dst, db);
  sim::vec_cost(kCostSimple * 2, static_cast<std::uint32_t>((count * 4 + 255) / 256), sp, 2, &dp, 1);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const std::uint64_t mask[],
                 sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;
  static_assert(sim::axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  sim::axpy_mask(dst, src, static_cast<float>(scalarValue), isSetMask, mask, 0, repeatTime.value, repeatParams, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, std::uint64_t mask,
                 sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;
  static_assert(sim::axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  sim::axpy_mask(dst, src, static_cast<float>(scalarValue), isSetMask, nullptr, mask, repeatTime.value, repeatParams, file, line);
}

}  // namespace AscendC
