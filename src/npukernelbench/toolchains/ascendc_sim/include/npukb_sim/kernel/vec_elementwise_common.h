// npukb_sim/kernel/vec_elementwise_common.h -- what the vector API headers share: the count-form and
// mask/repeat-form drivers of elementwise instructions (binary, unary), the calCount check, the
// per-instruction cost constants, and the signature macros every kernel API uses (the caller's
// file/line parameters and the exact-signature function-pointer companions). Clean-room part of
// ascendc-sim.
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

// The mask / repeat form of an elementwise instruction over two sources; kReadsDst: it also reads the
// destination (the ternary FusedMulAdd / MulAddDst / Axpy family: f(dst, src0, src1)).
template <bool kReadsDst, typename T, typename F>
inline void elementwise_mask(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
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
    std::uint8_t* pd = od.p + od.off(r, k);
    if constexpr (kReadsDst) {
      out.put(r, pd, f(ld<T>(pd), ld<T>(oa.p + oa.off(r, k)), ld<T>(ob.p + ob.off(r, k))));
    } else {
      out.put(r, pd, f(ld<T>(oa.p + oa.off(r, k)), ld<T>(ob.p + ob.off(r, k))));
    }
  });
  out.flush();
  const npukb::kern::Span sp[3] = {vspan(a, ea), vspan(b, eb), vspan(dst, ed)};
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(cpr, pl.repeats, sp, kReadsDst ? 3 : 2, &dp, 1);
}

template <typename T, typename F>
inline void binary_mask(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                        bool isSetMask, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                        const BinaryRepeatParams& p, double cpr, F f, const char* file, int line) {
  elementwise_mask<false>(api, dst, a, b, isSetMask, bits, cont, repeat, p, cpr, f, file, line);
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

// Exact-signature companions of the mask / repeat forms. Those take their repeat count as a
// sim::RepeatArg (a count above 255 is a violation instead of the silent uint8_t truncation), so
// their function type differs from the real API's; real kernels pass APIs as template arguments
// (`template <OneScalarBinaryOp<T>* op>` with `Adds`, `Sub`, `Exp`, `Sin<float, false>`, ...), which
// needs the exact type. Each such overload has a companion with the real parameter list whose return
// type is an extra template parameter: deducible from a function-pointer type (it must be void),
// never from a call, so direct calls choose the checking overload. The count forms have the real
// signature themselves (partial ordering prefers them over their companion).
#define NPUKB_PTR_RET typename npukbPtrRet
#define NPUKB_PTR_CHECK(NAME) \
  static_assert(std::is_void_v<npukbPtrRet>, #NAME ": AscendC vector APIs return void")

}  // namespace AscendC
