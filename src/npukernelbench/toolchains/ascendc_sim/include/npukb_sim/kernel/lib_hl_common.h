// npukb_sim/kernel/lib_hl_common.h -- what the high-level (library) math, activation and softmax APIs
// share: operand checks (allocated, in the Unified Buffer, 32-byte aligned), the caller's sharedTmpBuffer
// checks (at least the simulator's documented minimum for the call, the figure the host helpers report,
// and no overlap with an operand), the elementwise driver, and the cost of an API as the vector
// instruction sequence it runs. Clean-room part of ascendc-sim.
//
// Overlap of the destination with a source: the docs of most library APIs say it is not supported, yet
// real kernels run them in place (Tanh(x, x, n), Sigmoid<float, true>(g, g, tmp, n)) and get the right
// result on the device, since each instruction of the sequence reads a repeat before it writes it. The
// simulator therefore computes every library API from a snapshot of its sources: an overlapping
// destination gets the non-overlapping result. The sharedTmpBuffer, which the sequence writes, must not
// overlap any operand: that is a violation.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "npukb_sim/lib_math_configs.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

// The instruction sequence of one pass of a library API over its data (in fp32 for half / float):
// simple (add, mul, compare, select, cast, ...), transcendental (exp, ln, sqrt) and division
// instructions. A 16-bit floating type adds the casts to fp32 and back.
struct HlSeq {
  std::uint32_t simple = 0;
  std::uint32_t trans = 0;
  std::uint32_t div = 0;
};

// Charge the sequence over `elems` elements of `elem_bytes` each at the compute width (fp32 for
// 16-bit floating types: twice the repeats, plus the two casts).
inline void hl_cost(const HlSeq& seq, std::uint64_t elems, std::uint32_t elem_bytes, bool widened,
                    const npukb::kern::Span* src, int nsrc, const npukb::kern::Span* dst, int ndst) {
  const std::uint64_t width = widened ? 4u : elem_bytes;
  const double repeats = static_cast<double>((elems * width + 255) / 256);
  const std::uint32_t casts = widened ? 2u : 0u;
  const double instrs = static_cast<double>(seq.simple + seq.trans + seq.div + casts);
  const double cpr = (seq.simple + casts) * kCostSimple + seq.trans * kCostTrans + seq.div * kCostDiv;
  npukb::kern::schedule(npukb::PIPE_ID_V, instrs * npukb::kern::kVecStartCycles + cpr * repeats, src, nsrc, dst, ndst);
}

template <typename T>
constexpr bool hl_float = one_of<T, half, float, bfloat16_t>;

// Element to compute type and back: fp32 for the floating types, the type itself for integers.
template <typename T>
using hl_compute_t = std::conditional_t<hl_float<T>, float, T>;
template <typename T>
inline hl_compute_t<T> hl_in(T v) { return static_cast<hl_compute_t<T>>(v); }
template <typename T>
inline T hl_out(hl_compute_t<T> v) {
  if constexpr (std::is_same_v<T, bfloat16_t>) return bfloat16_t(v);
  else return static_cast<T>(v);
}

// A library API's UB operand: allocated, in the Unified Buffer (VECIN / VECCALC / VECOUT), 32-byte
// aligned, `bytes` long (a run past the tensor into other UB bytes is a warning, as for every API).
template <typename T>
inline void hl_operand(const char* api, const char* what, const LocalTensor<T>& t, std::uint64_t bytes, const char* file,
                       int line) {
  check_local(api, what, t, bytes, true, file, line);
  if (t.loc().hw != Hardware::UB) {
    npukb::violation(api, std::string(what) + " is not a Unified Buffer tensor (the API takes VECIN / VECCALC / VECOUT tensors)",
                     file, line);
  }
}

// An operand's UB bytes, for the overlap checks.
struct UbRange {
  const std::uint8_t* base = nullptr;
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  const char* what = "";
};
template <typename T>
inline UbRange ub_range(const LocalTensor<T>& t, std::uint64_t bytes, const char* what) {
  return UbRange{t.loc().base, t.loc().addr, t.loc().addr + bytes, what};
}
inline bool overlaps(const UbRange& a, const UbRange& b) {
  return a.base != nullptr && a.base == b.base && a.begin < b.end && b.begin < a.end;
}

// The caller's sharedTmpBuffer: at least `min_bytes`; the API uses up to `max_bytes` of it, which must
// not overlap an operand.
inline void hl_tmp(const char* api, const LocalTensor<std::uint8_t>& tmp, std::uint32_t min_bytes, std::uint32_t max_bytes,
                   std::initializer_list<UbRange> operands, const char* file, int line) {
  hl_operand(api, "sharedTmpBuffer", tmp, 0, file, line);
  const std::uint64_t have = tmp.GetSize();
  if (have < min_bytes) {
    npukb::violation(api, "sharedTmpBuffer holds " + npukb::kern::num(static_cast<long long>(have)) +
                     " bytes, fewer than the " + npukb::kern::num(min_bytes) +
                     " this call needs (the minValue the host's tmp-size helper reports for this element count and data type)",
                     file, line);
  }
  const std::uint64_t used = have < max_bytes ? have : (max_bytes > min_bytes ? max_bytes : min_bytes);
  const UbRange t = ub_range(tmp, used, "sharedTmpBuffer");
  for (const UbRange& op : operands) {
    if (overlaps(t, op)) {
      npukb::violation(api, std::string("sharedTmpBuffer overlaps ") + op.what +
                       " (the API keeps its intermediate values there; the docs forbid the overlap)", file, line);
    }
  }
}

// Two sources of an API without a calCount must have the same number of elements.
template <typename T, typename U>
inline void hl_same_size(const char* api, const LocalTensor<T>& a, const char* an, const LocalTensor<U>& b, const char* bn,
                         const char* file, int line) {
  if (a.GetSize() != b.GetSize()) {
    npukb::violation(api, std::string(an) + " holds " + npukb::kern::num(a.GetSize()) + " elements and " + bn + " " +
                     npukb::kern::num(b.GetSize()) + ": without calCount the sources must have the same size", file, line);
  }
}

// One elementwise source: its tensor and its name in violation messages.
template <typename T>
struct HlSrc {
  const LocalTensor<T>* t;
  const char* name;
};

// dst[i] = f(src_0[i], ..., src_{N-1}[i]) for i < count, computed in hl_compute_t<T> from a snapshot of
// the sources. `tmp`: the caller's sharedTmpBuffer, or nullptr (the framework's own space).
template <typename D, typename T, std::size_t N, typename F>
inline void hl_elementwise(const char* api, const LocalTensor<D>& dst, const char* dst_name, const HlSrc<T> (&src)[N],
                           const LocalTensor<std::uint8_t>* tmp, std::uint32_t count, npukb_lib::TmpFactor factor,
                           const HlSeq& seq, F f, const char* file, int line) {
  static_assert(N >= 1 && N <= 2, "hl_elementwise: one or two sources");
  if (count == 0) return;
  const std::uint64_t db = static_cast<std::uint64_t>(count) * sizeof(D);
  const std::uint64_t sb = static_cast<std::uint64_t>(count) * sizeof(T);
  hl_operand(api, dst_name, dst, db, file, line);
  for (std::size_t k = 0; k < N; ++k) hl_operand(api, src[k].name, *src[k].t, sb, file, line);
  const std::uint32_t tsz = static_cast<std::uint32_t>(sizeof(T) > sizeof(D) ? sizeof(D) : sizeof(T));
  if (tmp != nullptr) {
    const UbRange d = ub_range(dst, db, dst_name), s0 = ub_range(*src[0].t, sb, src[0].name);
    const UbRange s1 = N > 1 ? ub_range(*src[N - 1].t, sb, src[N - 1].name) : UbRange{};
    hl_tmp(api, *tmp, npukb_lib::ElemMinTmpBytes(factor, count, tsz), npukb_lib::ElemMaxTmpBytes(factor, count, tsz),
           {d, s0, s1}, file, line);
  }
  std::vector<T> snap[N];
  for (std::size_t k = 0; k < N; ++k) snap[k].assign(src[k].t->ptr(), src[k].t->ptr() + count);
  D* out = dst.ptr();
  for (std::uint32_t i = 0; i < count; ++i) {
    if constexpr (N == 1) {
      out[i] = hl_out<D>(static_cast<hl_compute_t<D>>(f(hl_in<T>(snap[0][i]))));
    } else {
      out[i] = hl_out<D>(static_cast<hl_compute_t<D>>(f(hl_in<T>(snap[0][i]), hl_in<T>(snap[N - 1][i]))));
    }
  }
  count_plan(count, 256 / static_cast<std::uint32_t>(sizeof(D)));
  npukb::kern::Span sp[N];
  for (std::size_t k = 0; k < N; ++k) sp[k] = vspan(*src[k].t, sb);
  const npukb::kern::Span dp = vspan(dst, db);
  hl_cost(seq, count, static_cast<std::uint32_t>(sizeof(D)), hl_float<D> && sizeof(D) < 4, sp, static_cast<int>(N), &dp, 1);
}

}  // namespace sim
}  // namespace AscendC
