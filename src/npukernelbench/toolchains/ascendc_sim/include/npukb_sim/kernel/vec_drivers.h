// npukb_sim/kernel/vec_drivers.h -- drivers of the vector instructions whose operands differ in type
// (the fused cast family: AddReluCast, MulCast, MulAddDst with half sources and a float dst, ...) and
// of the count forms that take isSetMask, plus the integer arithmetic of the vector unit (two's
// complement wrap-around, no saturation). A repeat covers 256 bytes of the wider operand type; each
// operand is laid out in 32-byte blocks of its own element type (so a narrowing instruction writes
// fewer destination blocks per repeat, and its dstRepStride is set accordingly by the caller).
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

// ---- integer arithmetic: the vector unit wraps (modulo 2^bits) ---------------------------------
template <typename T>
using uns_t = std::make_unsigned_t<T>;
template <typename T>
inline T wadd(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<uns_t<T>>(static_cast<uns_t<T>>(a) + static_cast<uns_t<T>>(b)));
  else return static_cast<T>(a + b);
}
template <typename T>
inline T wsub(T a, T b) {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<uns_t<T>>(static_cast<uns_t<T>>(a) - static_cast<uns_t<T>>(b)));
  else return static_cast<T>(a - b);
}
template <typename T>
inline T wmul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    // through 64-bit unsigned arithmetic: no signed overflow, no promotion to int
    return static_cast<T>(static_cast<uns_t<T>>(static_cast<std::uint64_t>(static_cast<uns_t<T>>(a)) *
                                                static_cast<std::uint64_t>(static_cast<uns_t<T>>(b))));
  } else {
    return static_cast<T>(a * b);
  }
}
template <typename T>
inline T relu_of(T v) { return v > T(0) ? v : T(0); }

// dst [0, dbytes) and a source [0, sbytes) share UB bytes.
template <typename D, typename S>
inline bool overlaps(const LocalTensor<D>& d, std::uint64_t dbytes, const LocalTensor<S>& s, std::uint64_t sbytes) {
  return d.loc().base == s.loc().base && d.loc().addr < s.loc().addr + sbytes && s.loc().addr < d.loc().addr + dbytes;
}
template <typename D, typename S>
inline void forbid_overlap(const char* api, const LocalTensor<D>& d, std::uint64_t dbytes, const LocalTensor<S>& s,
                           std::uint64_t sbytes, const char* what, const char* file, int line) {
  if (overlaps(d, dbytes, s, sbytes)) {
    npukb::violation(api, std::string("dst overlaps ") + what + ", which this instruction does not support", file, line);
  }
}

template <typename D, typename S>
constexpr std::uint32_t wide_size() { return sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S); }

// ---- mixed-type elementwise instruction: dst D, two sources S (f(src0, src1) or f(dst, src0, src1)) ----
template <bool kReadsDst, typename D, typename S, typename F>
inline void mixed_mask(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& a, const LocalTensor<S>& b,
                       bool isSetMask, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                       const BinaryRepeatParams& p, double cpr, F f, const char* file, int line, bool no_overlap = false) {
  const Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / wide_size<D, S>(), file, line);
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstBlkStride, p.dstRepStride), oa = opnd(a, p.src0BlkStride, p.src0RepStride),
             ob = opnd(b, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t ed = od.extent(pl), ea = oa.extent(pl), eb = ob.extent(pl);
  check_local(api, "dst", dst, ed, true, file, line);
  check_local(api, "src0", a, ea, true, file, line);
  check_local(api, "src1", b, eb, true, file, line);
  if (no_overlap) {
    forbid_overlap(api, dst, ed, a, ea, "src0", file, line);
    forbid_overlap(api, dst, ed, b, eb, "src1", file, line);
  }
  RepeatWriter<D> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    std::uint8_t* pd = od.p + od.off(r, k);
    if constexpr (kReadsDst) {
      out.put(r, pd, f(ld<D>(pd), ld<S>(oa.p + oa.off(r, k)), ld<S>(ob.p + ob.off(r, k))));
    } else {
      out.put(r, pd, f(ld<S>(oa.p + oa.off(r, k)), ld<S>(ob.p + ob.off(r, k))));
    }
  });
  out.flush();
  const npukb::kern::Span sp[3] = {vspan(a, ea), vspan(b, eb), vspan(dst, ed)};
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(cpr, pl.repeats, sp, kReadsDst ? 3 : 2, &dp, 1);
}

template <bool kReadsDst, typename D, typename S, typename F>
inline void mixed_count(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& a, const LocalTensor<S>& b,
                        long long count, double cpr, F f, const char* file, int line, bool no_overlap = false) {
  check_count<D>(api, count, file, line);
  if (count == 0) return;
  const std::uint64_t n = static_cast<std::uint64_t>(count);
  const std::uint64_t db = n * sizeof(D), sb = n * sizeof(S);
  check_local(api, "dst", dst, db, true, file, line);
  check_local(api, "src0", a, sb, true, file, line);
  check_local(api, "src1", b, sb, true, file, line);
  if (no_overlap) {
    forbid_overlap(api, dst, db, a, sb, "src0", file, line);
    forbid_overlap(api, dst, db, b, sb, "src1", file, line);
  }
  const S* x = a.ptr();
  const S* y = b.ptr();
  const D* d = dst.ptr();
  const std::uint32_t per_rep = 256 / wide_size<D, S>();
  per_repeat(dst.ptr(), n, per_rep, [&](std::uint64_t i) {
    if constexpr (kReadsDst) return f(d[i], x[i], y[i]);
    else return f(x[i], y[i]);
  });
  count_plan(n, per_rep);
  const npukb::kern::Span sp[3] = {vspan(a, sb), vspan(b, sb), vspan(dst, db)};
  const npukb::kern::Span dp = vspan(dst, db);
  vec_cost(cpr, static_cast<std::uint32_t>((n + per_rep - 1) / per_rep), sp, kReadsDst ? 3 : 2, &dp, 1);
}

// ---- count form of a one-source instruction with isSetMask (the tensor-op-scalar family) ----------
template <typename D, typename S, typename F>
inline void unary_count_mask(const char* api, const LocalTensor<D>& dst, const LocalTensor<S>& src, bool isSetMask,
                             long long count, double cpr, F f, const char* file, int line) {
  const std::uint64_t n = count_form_total(api, isSetMask, count, file, line);
  const std::uint32_t w = wide_size<D, S>();
  if (n != 0) {
    const std::uint64_t db = n * sizeof(D), sb = n * sizeof(S);
    check_local(api, "dst", dst, db, true, file, line);
    check_local(api, "src", src, sb, true, file, line);
    const S* x = src.ptr();
    per_repeat(dst.ptr(), n, 256 / w, [&](std::uint64_t i) { return f(x[i]); });
    const npukb::kern::Span sp = vspan(src, sb), dp = vspan(dst, db);
    vec_cost(cpr, static_cast<std::uint32_t>((n * w + 255) / 256), &sp, 1, &dp, 1);
  }
  count_form_done(isSetMask, 256 / w, n);
}

}  // namespace sim
}  // namespace AscendC
