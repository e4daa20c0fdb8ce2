// npukb_sim/kernel/vec_ops.h -- elementwise vector APIs: binary (Add, Sub, Mul, Div, Max, Min, And, Or),
// unary (Exp, Ln, Abs, Sqrt, Rsqrt, Reciprocal, Relu, Not), tensor-scalar (Adds, Muls, Maxs, Mins,
// LeakyRelu, ShiftLeft, ShiftRight), Duplicate and Axpy; count form and mask/repeat form.
// Signatures and dtype sets follow the public API for Atlas A2 (910B). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_engine.h"

namespace AscendC {
namespace sim {

template <typename T>
inline void check_count(const char* api, long long count, const char* file, int line) {
  if (count < 0) npukb::violation(api, "calCount " + npukb::kern::num(count) + " is negative", file, line);
}

template <typename T, typename F>
inline void binary_count(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                         std::int32_t count, double cpr, F f, const char* file, int line) {
  check_count<T>(api, count, file, line);
  if (count == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T);
  check_local(api, "dst", dst, bytes, true, file, line);
  check_local(api, "src0", a, bytes, true, file, line);
  check_local(api, "src1", b, bytes, true, file, line);
  const T* x = a.ptr();
  const T* y = b.ptr();
  per_repeat(dst.ptr(), static_cast<std::uint64_t>(count), 256 / sizeof(T), [&](std::uint64_t i) { return f(x[i], y[i]); });
  count_plan(static_cast<std::uint64_t>(count), 256 / sizeof(T));
  const npukb::kern::Span sp[2] = {vspan(a, bytes), vspan(b, bytes)};
  const npukb::kern::Span dp = vspan(dst, bytes);
  vec_cost(cpr, static_cast<std::uint32_t>((bytes + 255) / 256), sp, 2, &dp, 1);
}

template <typename T, typename F>
inline void binary_mask(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                        bool isSetMask, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                        const BinaryRepeatParams& p, double cpr, F f, const char* file, int line) {
  const Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / sizeof(T), file, line);
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstBlkStride, p.dstRepStride), oa = opnd(a, p.src0BlkStride, p.src0RepStride),
             ob = opnd(b, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t ed = od.extent(pl), ea = oa.extent(pl), eb = ob.extent(pl);
  check_local(api, "dst", dst, ed, true, file, line);
  check_local(api, "src0", a, ea, true, file, line);
  check_local(api, "src1", b, eb, true, file, line);
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    out.put(r, od.p + od.off(r, k), f(ld<T>(oa.p + oa.off(r, k)), ld<T>(ob.p + ob.off(r, k))));
  });
  out.flush();
  const npukb::kern::Span sp[2] = {vspan(a, ea), vspan(b, eb)};
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(cpr, pl.repeats, sp, 2, &dp, 1);
}

template <typename D, typename S, typename F>
inline void unary_count(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, std::int64_t count,
                        double cpr, F f, const char* file, int line) {
  check_count<D>(api, count, file, line);
  if (count == 0) return;
  const std::uint64_t db = static_cast<std::uint64_t>(count) * sizeof(D), sb = static_cast<std::uint64_t>(count) * sizeof(S);
  check_local(api, "dst", dst, db, true, file, line);
  check_local(api, "src", src, sb, true, file, line);
  const S* x = src.ptr();
  const std::uint32_t w = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  per_repeat(dst.ptr(), static_cast<std::uint64_t>(count), 256 / w, [&](std::uint64_t i) { return f(x[i]); });
  count_plan(static_cast<std::uint64_t>(count), 256 / w);
  const npukb::kern::Span sp = vspan(src, sb), dp = vspan(dst, db);
  vec_cost(cpr, static_cast<std::uint32_t>((count * w + 255) / 256), &sp, 1, &dp, 1);
}

template <typename D, typename S, typename F>
inline void unary_mask(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, bool isSetMask,
                       const std::uint64_t* bits, std::uint64_t cont, long long repeat, std::uint32_t dblk, std::uint32_t sblk,
                       std::uint32_t drep, std::uint32_t srep, double cpr, F f, const char* file, int line) {
  const std::uint32_t w = sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S);
  const Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / w, file, line);
  if (pl.empty()) return;
  const Opnd od = opnd(dst, dblk, drep), os = opnd(src, sblk, srep);
  const std::uint64_t ed = od.extent(pl), es = os.extent(pl);
  check_local(api, "dst", dst, ed, true, file, line);
  check_local(api, "src", src, es, true, file, line);
  RepeatWriter<D> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    out.put(r, od.p + od.off(r, k), f(ld<S>(os.p + os.off(r, k))));
  });
  out.flush();
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(cpr, pl.repeats, &sp, 1, &dp, 1);
}

// Scalar math in the element type (fp16 results are rounded back to half, as the hardware does).
template <typename T> inline float tofl(T v) { return static_cast<float>(v); }

}  // namespace sim

constexpr double kCostSimple = static_cast<double>(npukb::kern::VecCost::Simple);
constexpr double kCostDiv = static_cast<double>(npukb::kern::VecCost::Div);
constexpr double kCostTrans = static_cast<double>(npukb::kern::VecCost::Transcend);

#define NPUKB_LOC_PARAMS const char* file = __builtin_FILE(), int line = __builtin_LINE()

// Exact-signature companions. Every public API overload takes two trailing defaulted parameters (the
// caller's file and line, for violation messages), so its function type differs from the real API's.
// Real kernels pass APIs as template arguments (`template <OneScalarBinaryOp<T>* op>` with
// `Adds`, `Sub`, `Exp`, `Sin<float, false>`, ...), which needs the exact type. Each overload therefore
// has a companion with the real parameter list whose return type is an extra template parameter:
// deducible from a function-pointer type (it must be void), never from a call, so direct calls always
// choose the location-capturing overload. Calls through such a pointer report no kernel line.
#define NPUKB_PTR_RET typename npukbPtrRet
#define NPUKB_PTR_CHECK(NAME) \
  static_assert(std::is_void_v<npukbPtrRet>, #NAME ": AscendC vector APIs return void")
#define NPUKB_PTR_LOC "<a call through a function pointer>", 0

// ---- binary ------------------------------------------------------------------------------------
#define NPUKB_BINARY(NAME, COST, EXPR, ...)                                                                        \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::int32_t& calCount, NPUKB_LOC_PARAMS) {                                                \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_count(#NAME, dst, src0, src1, calCount, COST, [](T a, T b) -> T { return static_cast<T>(EXPR); }, \
                      file, line);                                                                                  \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams,  \
                   NPUKB_LOC_PARAMS) {                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_mask(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTimes.value, repeatParams, COST,            \
                     [](T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams,          \
                   NPUKB_LOC_PARAMS) {                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::binary_mask(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTimes.value, repeatParams, COST,      \
                     [](T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                              \
  }                                                                                                                 \
  template <typename T, NPUKB_PTR_RET>                                                                              \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          const std::int32_t& calCount) {                                                           \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T>(dst, src0, src1, calCount, NPUKB_PTR_LOC);                                                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          const std::uint64_t mask[], const std::uint8_t repeatTimes,                               \
                          const BinaryRepeatParams& repeatParams) {                                                 \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src0, src1, mask, repeatTimes, repeatParams, NPUKB_PTR_LOC);                            \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          std::uint64_t mask[], const std::uint8_t repeatTimes,                                     \
                          const BinaryRepeatParams& repeatParams) {                                                 \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src0, src1, static_cast<const std::uint64_t*>(mask), repeatTimes, repeatParams,         \
                       NPUKB_PTR_LOC);                                                                              \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,        \
                          std::uint64_t mask, const std::uint8_t repeatTimes,                                       \
                          const BinaryRepeatParams& repeatParams) {                                                 \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src0, src1, mask, repeatTimes, repeatParams, NPUKB_PTR_LOC);                            \
  }

NPUKB_BINARY(Add, kCostSimple, a + b, half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Sub, kCostSimple, a - b, half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Mul, kCostSimple, a * b, half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Div, kCostDiv, a / b, half, float)
NPUKB_BINARY(Max, kCostSimple, (a > b ? a : b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(Min, kCostSimple, (a < b ? a : b), half, float, std::int16_t, std::int32_t)
NPUKB_BINARY(And, kCostSimple, a & b, std::int16_t, std::uint16_t)
NPUKB_BINARY(Or, kCostSimple, a | b, std::int16_t, std::uint16_t)
NPUKB_BINARY(AddRelu, kCostSimple, ((a + b) > 0 ? (a + b) : 0), half, float, std::int16_t)
NPUKB_BINARY(SubRelu, kCostSimple, ((a - b) > 0 ? (a - b) : 0), half, float, std::int16_t)

// ---- unary -------------------------------------------------------------------------------------
#define NPUKB_UNARY(NAME, COST, EXPR, ...)                                                                          \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t& calCount,              \
                   NPUKB_LOC_PARAMS) {                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_count(#NAME, dst, src, calCount, COST, [](T a) -> T { return static_cast<T>(EXPR); }, file, line);  \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],                \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams, NPUKB_LOC_PARAMS) {           \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_mask(#NAME, dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstBlkStride,              \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                    \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask,                        \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams, NPUKB_LOC_PARAMS) {           \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    sim::unary_mask(#NAME, dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstBlkStride,        \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                    \
  }                                                                                                                 \
  template <typename T, NPUKB_PTR_RET>                                                                              \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t& calCount) {     \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T>(dst, src, calCount, NPUKB_PTR_LOC);                                                                     \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],         \
                          const std::uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, mask, repeatTimes, repeatParams, NPUKB_PTR_LOC);                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask,                 \
                          const std::uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, mask, repeatTimes, repeatParams, NPUKB_PTR_LOC);                                   \
  }

NPUKB_UNARY(Exp, kCostTrans, __builtin_expf(sim::tofl(a)), half, float)
NPUKB_UNARY(Ln, kCostTrans, __builtin_logf(sim::tofl(a)), half, float)
NPUKB_UNARY(Abs, kCostSimple, __builtin_fabsf(sim::tofl(a)), half, float)
NPUKB_UNARY(Sqrt, kCostTrans, __builtin_sqrtf(sim::tofl(a)), half, float)
NPUKB_UNARY(Rsqrt, kCostTrans, 1.0f / __builtin_sqrtf(sim::tofl(a)), half, float)
NPUKB_UNARY(Reciprocal, kCostTrans, 1.0f / sim::tofl(a), half, float)
NPUKB_UNARY(Relu, kCostSimple, (a > 0 ? a : 0), half, float, std::int32_t)
NPUKB_UNARY(Not, kCostSimple, ~a, std::int16_t, std::uint16_t)

// ---- tensor op scalar --------------------------------------------------------------------------
#define NPUKB_SCALAR(NAME, COST, EXPR, ...)                                                                         \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,                      \
                   const std::int32_t& calCount, NPUKB_LOC_PARAMS) {                                                \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    const T s = scalarValue;                                                                                        \
    sim::unary_count(#NAME, dst, src, calCount, COST, [s](T a) -> T { return static_cast<T>(EXPR); }, file, line); \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,                      \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams,   \
                   NPUKB_LOC_PARAMS) {                                                                              \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    const T s = scalarValue;                                                                                        \
    sim::unary_mask(#NAME, dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstBlkStride,              \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [s](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                   \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, std::uint64_t mask,  \
                   sim::RepeatArg repeatTimes, const UnaryRepeatParams& repeatParams, NPUKB_LOC_PARAMS) {           \
    static_assert(sim::one_of<T, __VA_ARGS__>, #NAME ": unsupported data type (supported: " #__VA_ARGS__ ")");     \
    const T s = scalarValue;                                                                                        \
    sim::unary_mask(#NAME, dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstBlkStride,        \
                    repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, COST,          \
                    [s](T a) -> T { return static_cast<T>(EXPR); }, file, line);                                   \
  }                                                                                                                 \
  template <typename T, NPUKB_PTR_RET>                                                                              \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          const std::int32_t& calCount) {                                                           \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T>(dst, src, scalarValue, calCount, NPUKB_PTR_LOC);                                                        \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          const std::uint64_t mask[], const std::uint8_t repeatTimes,                               \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTimes, repeatParams, NPUKB_PTR_LOC);                      \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true, NPUKB_PTR_RET>                                                       \
  inline npukbPtrRet NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,               \
                          std::uint64_t mask, const std::uint8_t repeatTimes,                                       \
                          const UnaryRepeatParams& repeatParams) {                                                  \
    NPUKB_PTR_CHECK(NAME);                                                                                          \
    NAME<T, isSetMask>(dst, src, scalarValue, mask, repeatTimes, repeatParams, NPUKB_PTR_LOC);                      \
  }

NPUKB_SCALAR(Adds, kCostSimple, a + s, half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Muls, kCostSimple, a * s, half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Maxs, kCostSimple, (a > s ? a : s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(Mins, kCostSimple, (a < s ? a : s), half, float, std::int16_t, std::int32_t)
NPUKB_SCALAR(LeakyRelu, kCostSimple, (a >= 0 ? a : a * s), half, float)
NPUKB_SCALAR(ShiftLeft, kCostSimple, (a << s), std::int16_t, std::uint16_t, std::int32_t, std::uint32_t)
NPUKB_SCALAR(ShiftRight, kCostSimple, (a >> s), std::int16_t, std::uint16_t, std::int32_t, std::uint32_t)

// ---- Duplicate ---------------------------------------------------------------------------------
#define NPUKB_DUP_TYPES half, bfloat16_t, float, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const std::int32_t& calCount, NPUKB_LOC_PARAMS) {
  static_assert(sim::one_of<T, NPUKB_DUP_TYPES>, "Duplicate: unsupported data type");
  const T s = scalarValue;
  sim::unary_count("Duplicate", dst, dst, calCount, kCostSimple, [s](T) -> T { return s; }, file, line);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const std::uint64_t mask[], sim::RepeatArg repeatTimes,
                      const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride, NPUKB_LOC_PARAMS) {
  static_assert(sim::one_of<T, NPUKB_DUP_TYPES>, "Duplicate: unsupported data type");
  const T s = scalarValue;
  sim::unary_mask("Duplicate", dst, dst, isSetMask, mask, 0, repeatTimes.value, dstBlockStride, dstBlockStride,
                  dstRepeatStride, dstRepeatStride, kCostSimple, [s](T) -> T { return s; }, file, line);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, std::uint64_t mask, sim::RepeatArg repeatTimes,
                      const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride, NPUKB_LOC_PARAMS) {
  static_assert(sim::one_of<T, NPUKB_DUP_TYPES>, "Duplicate: unsupported data type");
  const T s = scalarValue;
  sim::unary_mask("Duplicate", dst, dst, isSetMask, nullptr, mask, repeatTimes.value, dstBlockStride, dstBlockStride,
                  dstRepeatStride, dstRepeatStride, kCostSimple, [s](T) -> T { return s; }, file, line);
}

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
  const Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / sizeof(T), file, line);
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstBlkStride, p.dstRepStride), oa = opnd(a, p.src0BlkStride, p.src0RepStride),
             ob = opnd(b, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t ed = od.extent(pl), ea = oa.extent(pl), eb = ob.extent(pl);
  check_local(api, "dst", dst, ed, true, file, line);
  check_local(api, "src0", a, ea, true, file, line);
  check_local(api, "src1", b, eb, true, file, line);
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    std::uint8_t* pd = od.p + od.off(r, k);
    out.put(r, pd, f(ld<T>(pd), ld<T>(oa.p + oa.off(r, k)), ld<T>(ob.p + ob.off(r, k))));
  });
  out.flush();
  const npukb::kern::Span sp[3] = {vspan(a, ea), vspan(b, eb), vspan(dst, ed)};
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(kCostSimple * 2, pl.repeats, sp, 3, &dp, 1);
}
}  // namespace sim

#define NPUKB_TERNARY(NAME, EXPR)                                                                                  \
  template <typename T>                                                                                             \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::int32_t& calCount, NPUKB_LOC_PARAMS) {                                                \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_count(#NAME, dst, src0, src1, calCount,                                                            \
                       [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                        \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams,  \
                   NPUKB_LOC_PARAMS) {                                                                              \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_mask(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTimes.value, repeatParams,                  \
                      [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                         \
  }                                                                                                                 \
  template <typename T, bool isSetMask = true>                                                                      \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& repeatParams,          \
                   NPUKB_LOC_PARAMS) {                                                                              \
    static_assert(sim::one_of<T, half, float>, #NAME ": unsupported data type (half, float)");                      \
    sim::ternary_mask(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTimes.value, repeatParams,            \
                      [](T d, T a, T b) -> T { return static_cast<T>(EXPR); }, file, line);                         \
  }

// The fused multiply-add rounds once (float arithmetic for half, fma for float).
NPUKB_TERNARY(FusedMulAdd, __builtin_fmaf(sim::tofl(a), sim::tofl(d), sim::tofl(b)))
NPUKB_TERNARY(MulAddDst, __builtin_fmaf(sim::tofl(a), sim::tofl(b), sim::tofl(d)))

// ---- Copy: masked vector-unit move between VECIN/VECCALC/VECOUT tensors --------------------------
#define NPUKB_COPY_TYPES std::uint16_t, std::int16_t, half, std::uint32_t, std::int32_t, float
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[], sim::RepeatArg repeatTimes,
                 const CopyRepeatParams& repeatParams, NPUKB_LOC_PARAMS) {
  static_assert(sim::one_of<T, NPUKB_COPY_TYPES>, "Copy: unsupported data type (uint16_t, int16_t, half, uint32_t, int32_t, float)");
  sim::unary_mask("Copy", dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstStride, repeatParams.srcStride,
                  repeatParams.dstRepeatSize, repeatParams.srcRepeatSize, kCostSimple, [](T a) -> T { return a; }, file, line);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask, sim::RepeatArg repeatTimes,
                 const CopyRepeatParams& repeatParams, NPUKB_LOC_PARAMS) {
  static_assert(sim::one_of<T, NPUKB_COPY_TYPES>, "Copy: unsupported data type (uint16_t, int16_t, half, uint32_t, int32_t, float)");
  sim::unary_mask("Copy", dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstStride, repeatParams.srcStride,
                  repeatParams.dstRepeatSize, repeatParams.srcRepeatSize, kCostSimple, [](T a) -> T { return a; }, file, line);
}

// ---- CreateVecIndex: dst[i] = firstValue + i (count form) -------------------------------------
// The index is formed exactly and rounded once to the element type (half keeps integers exact up
// to 2048, float up to 2^24).
template <typename T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, std::uint32_t calCount, NPUKB_LOC_PARAMS) {
  static_assert(sim::one_of<T, half, float, std::int16_t, std::int32_t>,
                "CreateVecIndex: unsupported data type (supported: half, float, int16_t, int32_t)");
  if (calCount == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(calCount) * sizeof(T);
  sim::check_local("CreateVecIndex", "dst", dst, bytes, true, file, line);
  T* d = dst.ptr();
  const double first = static_cast<double>(static_cast<float>(firstValue));
  for (std::uint32_t i = 0; i < calCount; ++i) {
    if constexpr (std::is_integral_v<T>) {
      d[i] = static_cast<T>(static_cast<std::int64_t>(firstValue) + static_cast<std::int64_t>(i));
    } else {
      d[i] = static_cast<T>(static_cast<float>(first + static_cast<double>(i)));
    }
  }
  sim::count_plan(static_cast<std::uint64_t>(calCount), 256 / sizeof(T));
  const npukb::kern::Span dp = sim::vspan(dst, bytes);
  sim::vec_cost(kCostSimple, static_cast<std::uint32_t>((bytes + 255) / 256), nullptr, 0, &dp, 1);
}

// ---- Axpy: dst = src * scalar + dst ------------------------------------------------------------
namespace sim {
template <typename T, typename U>
constexpr bool axpy_ok = (std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                         (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                         (std::is_same_v<T, float> && std::is_same_v<U, half>);
}
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue, const std::int32_t& calCount,
                 NPUKB_LOC_PARAMS) {
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
                 sim::RepeatArg repeatTimes, const UnaryRepeatParams& p, NPUKB_LOC_PARAMS) {
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
