// npukb_sim/kernel/vec_ternary.h -- vector APIs that also read dst: FusedMulAdd and MulAddDst (two
// source tensors) and Axpy (a source tensor and a scalar, the ternary-scalar family).
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- ternary: FusedMulAdd (dst = src0 * dst + src1), MulAddDst (dst = src0 * src1 + dst) ------------
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
}  // namespace sim

#define NPUKB_TERNARY(NAME, EXPR)                                                                                  \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::int32_t& calCount) { NPUKB_CALLER;                                                \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_count(#NAME, dst, src0, src1, calCount,                                                            \
                       [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                        \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_mask(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTimes.value, repeatParams,                  \
                      [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                         \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_mask(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTimes.value, repeatParams,            \
                      [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                         \
  }

// The fused multiply-add rounds once (float arithmetic for half, fma for float).
NPUKB_TERNARY(FusedMulAdd, __builtin_fmaf(sim::tofl(a), sim::tofl(d), sim::tofl(b)))
NPUKB_TERNARY(MulAddDst, __builtin_fmaf(sim::tofl(a), sim::tofl(b), sim::tofl(d)))

// ---- Axpy: dst = src * scalar + dst ------------------------------------------------------------
namespace sim {
template <typename T, typename U>
constexpr bool axpy_ok = (std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                         (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                         (std::is_same_v<T, float> && std::is_same_v<U, half>);
}
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, const std::int32_t& calCount) { NPUKB_CALLER;
  static_assert(sim::axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  sim::check_count<T>("Axpy", calCount, file, line);
  if (calCount == 0) return;
  const std::uint64_t db = static_cast<std::uint64_t>(calCount) * sizeof(T), sb = static_cast<std::uint64_t>(calCount) * sizeof(U);
  sim::check_local("Axpy", "dst", dst, db, true, file, line);
  sim::check_local("Axpy", "src", src, sb, true, file, line);
  const T* d = dst.ptr();
  const U* x = src.ptr();
  const float s = static_cast<float>(scalarValue);
  sim::per_repeat(dst.ptr(), static_cast<std::uint64_t>(calCount), 64,
                  [&](std::uint64_t i) { return static_cast<T>(static_cast<float>(x[i]) * s + static_cast<float>(d[i])); });
  sim::count_plan(static_cast<std::uint64_t>(calCount), 64);
  const npukb::kern::Span sp[2] = {sim::vspan(src, sb), sim::vspan(dst, db)};
  const npukb::kern::Span dp = sim::vspan(dst, db);
  sim::vec_cost(kCostSimple * 2, static_cast<std::uint32_t>((calCount * 4 + 255) / 256), sp, 2, &dp, 1);
}
template <typename T, typename U, bool isSetMask = true>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, std::uint64_t mask,
                 sim::RepeatArg repeatTimes, const UnaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  const float s = static_cast<float>(scalarValue);
  const std::uint32_t w = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);
  const sim::Plan pl = sim::make_plan("Axpy", isSetMask, nullptr, mask, repeatTimes.value, 256 / w, file, line);
  if (pl.empty()) return;
  const sim::Opnd od = sim::opnd(dst, p.dstBlkStride, p.dstRepStride), os = sim::opnd(src, p.srcBlkStride, p.srcRepStride);
  sim::check_local("Axpy", "dst", dst, od.extent(pl), true, file, line);
  sim::check_local("Axpy", "src", src, os.extent(pl), true, file, line);
  sim::RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    std::uint8_t* pd = od.p + od.off(r, k);
    out.put(r, pd, static_cast<T>(static_cast<float>(sim::ld<U>(os.p + os.off(r, k))) * s + static_cast<float>(sim::ld<T>(pd))));
  });
  out.flush();
  const npukb::kern::Span sp = sim::vspan(src, os.extent(pl)), dp = sim::vspan(dst, od.extent(pl));
  sim::vec_cost(kCostSimple * 2, pl.repeats, &sp, 1, &dp, 1);
}

}  // namespace AscendC
