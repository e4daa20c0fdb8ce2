// npukb_sim/kernel/reduce.h -- the reduction family: ReduceSum/Max/Min (one result for the whole input,
// count form and mask forms, repeatTime up to INT32_MAX), ReduceRepeat (= WholeReduceSum/Max/Min: one
// result per repeat, value and index in the documented ReduceOrder), ReduceDataBlock (=
// BlockReduceSum/Max/Min: one result per 32-byte block), ReducePairElem (= PairReduceSum: sums of
// adjacent pairs) and the special registers GetReduceRepeatSumSpr / GetReduceRepeatMaxMinSpr (the
// library's Sum, Mean and pattern reductions are in lib_reduce.h).
// Semantics, as documented for Atlas A2/A3: sums are binary trees in the element type (each addition
// rounds to T: adjacent pairs, then pairs of those, over the 32-byte block or the 256-byte repeat;
// masked-out elements count as 0); ReduceSum's count form then adds the repeat results in order, its
// mask forms reduce them as a tree of repeats again. Max/Min keep the first (lowest-index) extreme; an
// index is stored with the bits of an integer in a slot of the element type. A block (ReduceDataBlock)
// or pair (ReducePairElem) with no element under the mask leaves its dst element unchanged.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"
#include "npukb_sim/kernel/vec_traits.h"

namespace AscendC {
namespace sim {

enum class Red { Sum, Max, Min };

template <typename T>
constexpr bool red_types = one_of<T, half, float>;

inline Red red_of(ReduceType t) { return t == ReduceType::SUM ? Red::Sum : t == ReduceType::MAX ? Red::Max : Red::Min; }

// Index stored in a T-sized slot (the hardware writes the integer bits of the index).
template <typename T>
inline T index_bits(std::uint32_t idx) {
  T v;
  if constexpr (sizeof(T) == 2) { const std::uint16_t i = static_cast<std::uint16_t>(idx); std::memcpy(&v, &i, 2); }
  else { std::memcpy(&v, &idx, 4); }
  return v;
}

// Binary-tree sum of n values in the element type (pairs of adjacent values, then pairs of those;
// an odd element out is carried to the next level).
template <typename T>
inline T tree_sum(std::vector<T>& v) {
  if (v.empty()) return T(0);
  std::size_t n = v.size();
  while (n > 1) {
    std::size_t m = 0;
    for (std::size_t i = 0; i + 1 < n; i += 2) v[m++] = static_cast<T>(v[i] + v[i + 1]);
    if (n % 2) v[m++] = v[n - 1];
    n = m;
  }
  return v[0];
}

// One reduction result: the value, the index (Max/Min) and whether any element took part.
template <typename T>
struct RedOut {
  T value{};
  std::uint32_t index = 0;
  bool any = false;
};

// Reduce elements [k0, k1) of repeat r (element k at os.off(r, k)) under plan pl.
template <typename T>
inline RedOut<T> reduce_span(const Opnd& os, const Plan& pl, std::uint32_t r, std::uint32_t k0, std::uint32_t k1, Red op) {
  RedOut<T> o;
  const std::uint32_t n_in = pl.counter ? pl.count_in(r) : pl.per_rep;
  if (op == Red::Sum) {
    std::vector<T> vals(k1 - k0, T(0));
    for (std::uint32_t k = k0; k < k1; ++k) {
      const bool on = pl.counter ? k < n_in : pl.bit(k);
      if (on) { vals[k - k0] = ld<T>(os.p + os.off(r, k)); o.any = true; }
    }
    o.value = tree_sum(vals);
    return o;
  }
  for (std::uint32_t k = k0; k < k1; ++k) {
    const bool on = pl.counter ? k < n_in : pl.bit(k);
    if (!on) continue;
    const T v = ld<T>(os.p + os.off(r, k));
    if (!o.any || (op == Red::Max ? v > o.value : v < o.value)) { o.value = v; o.index = k; }
    o.any = true;
  }
  return o;
}

// Reduce every element of the plan into one value (+ the flat index of the first extreme).
// tree_repeats: the repeat results are summed as a tree of repeats (mask forms), else in order.
template <typename T>
inline RedOut<T> reduce_plan_all(const Opnd& os, const Plan& pl, Red op, bool tree_repeats) {
  RedOut<T> all;
  std::vector<T> part;
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    const RedOut<T> o = reduce_span<T>(os, pl, r, 0, pl.per_rep, op);
    if (!o.any) continue;
    if (op == Red::Sum) {
      if (tree_repeats) part.push_back(o.value);
      else all.value = all.any ? static_cast<T>(all.value + o.value) : o.value;
    } else if (!all.any || (op == Red::Max ? o.value > all.value : o.value < all.value)) {
      all.value = o.value;
      all.index = r * pl.per_rep + o.index;
    }
    all.any = true;
  }
  if (op == Red::Sum && tree_repeats) {
    // the repeat results are reduced again, per_rep at a time, until one is left
    while (part.size() > 1) {
      std::vector<T> next;
      for (std::size_t i = 0; i < part.size(); i += pl.per_rep) {
        std::vector<T> chunk(part.begin() + static_cast<std::ptrdiff_t>(i),
                             part.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(part.size(), i + pl.per_rep)));
        next.push_back(tree_sum(chunk));
      }
      part.swap(next);
    }
    if (!part.empty()) all.value = part[0];
  }
  return all;
}

// All elements of a plan into one value, the repeat results added in order (vcadd's accumulate mode,
// intrinsics.h); the value as float, the flat index of the first extreme.
template <typename T>
inline void reduce_plan(const Opnd& os, const Plan& pl, Red op, float& acc, std::uint32_t& idx) {
  const RedOut<T> o = reduce_plan_all<T>(os, pl, op, false);
  acc = static_cast<float>(o.value);
  idx = o.index;
}

template <typename T>
inline std::uint64_t raw_of(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// The plan of ReduceSum/Max/Min's mask forms: repeatTime is not limited to 255 (documented).
inline Plan reduce_all_plan(const char* api, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                            std::uint32_t per_rep, const char* file, int line) {
  if (repeat < 0) npukb::violation(api, "repeatTime " + npukb::kern::num(repeat) + " is negative", file, line);
  Plan p = make_plan(api, true, bits, cont, 0, per_rep, file, line);
  if (!p.counter) p.repeats = static_cast<std::uint32_t>(repeat);
  return p;
}

template <typename T>
inline void reduce_all(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                       const Plan& pl, std::uint32_t srcRepStride, Red op, bool calIndex, bool count_form, const char* file,
                       int line) {
  if (pl.empty()) return;
  const Opnd os = opnd(src, 1, srcRepStride);
  const std::uint64_t es = os.extent(pl);
  check_local(api, "src", src, es, true, file, line);
  check_local(api, "dst", dst, sizeof(T) * (calIndex || op != Red::Sum ? 2 : 1), false, file, line);
  // the hardware keeps one partial per repeat in the work tensor
  const std::uint64_t wbytes = static_cast<std::uint64_t>(pl.repeats) * sizeof(T) * (op == Red::Sum ? 1 : 2);
  check_local(api, "sharedTmpBuffer", work, wbytes, true, file, line);
  const RedOut<T> o = reduce_plan_all<T>(os, pl, op, !count_form);
  dst.ptr()[0] = o.value;
  if (op != Red::Sum && calIndex) dst.ptr()[1] = index_bits<T>(o.index);
  npukb::kern::KState& s = npukb::kern::state();
  if (op == Red::Sum) {
    if (count_form) s.acc_val = raw_of<T>(o.value);  // GetReduceRepeatSumSpr / GetAccVal
  } else {
    s.max_min_value = raw_of<T>(o.value);  // GetReduceRepeatMaxMinSpr (the index is not exact here)
    s.max_min_index = raw_of<T>(index_bits<T>(o.index));
  }
  const npukb::kern::Span sp = vspan(src, es);
  const npukb::kern::Span dp[2] = {vspan(dst, 2 * sizeof(T)), vspan(work, wbytes)};
  const std::uint32_t levels = pl.repeats > 1 ? 2 : 1;
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats * levels, &sp, 1, dp, 2);
}
}  // namespace sim

#define NPUKB_REDUCE_ALL(NAME, OP, HASIDX)                                                                            \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,         \
                   const std::int32_t count HASIDX) { NPUKB_CALLER;                                                     \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    const std::uint64_t n = sim::count_form_total(#NAME, isSetMask, count, file, line);                                \
    sim::Plan pl = sim::counter_plan(n, 256 / sizeof(T));                                                              \
    if (isSetMask) sim::count_plan(n, 256 / sizeof(T));                                                                \
    sim::reduce_all(#NAME, dst, src, sharedTmpBuffer, pl, 8, OP, NPUKB_IDXVAL, true, file, line);                      \
  }                                                                                                                    \
  /* tensors of a TensorTrait: the LiteType form (an overload: the count form above compiles as it did) */              \
  template <typename T, TPosition pos, typename LayoutType>                                                             \
  inline void NAME(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,                                             \
                   const LocalTensor<TensorTrait<T, pos, LayoutType>>& src,                                             \
                   const LocalTensor<TensorTrait<T, pos, LayoutType>>& sharedTmpBuffer, const std::int32_t count HASIDX) {\
    NAME(sim::lite(dst), sim::lite(src), sim::lite(sharedTmpBuffer), count NPUKB_IDXARG);                               \
  }                                                                                                                     \
  template <typename T>                                                                                                \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,         \
                   const std::uint64_t mask[], const std::int32_t repeatTimes, const std::int32_t srcRepStride          \
                   HASIDX) { NPUKB_CALLER;                                                             \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>>(sim::lite(dst), sim::lite(src), sim::lite(sharedTmpBuffer), mask, repeatTimes, srcRepStride NPUKB_IDXARG);\
    } else {                                                                                                            \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    const sim::Plan pl = sim::reduce_all_plan(#NAME, mask, 0, repeatTimes, 256 / sizeof(T), file, line);               \
    sim::reduce_all(#NAME, dst, src, sharedTmpBuffer, pl, static_cast<std::uint32_t>(srcRepStride), OP, NPUKB_IDXVAL,  \
                    false, file, line);                                                                                \
    }                                                                                                                   \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,         \
                   const std::int32_t mask, const std::int32_t repeatTimes, const std::int32_t srcRepStride             \
                   HASIDX) { NPUKB_CALLER;                                                             \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>>(sim::lite(dst), sim::lite(src), sim::lite(sharedTmpBuffer), mask, repeatTimes, srcRepStride NPUKB_IDXARG);\
    } else {                                                                                                            \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    const sim::Plan pl = sim::reduce_all_plan(#NAME, nullptr, static_cast<std::uint64_t>(mask), repeatTimes,           \
                                              256 / sizeof(T), file, line);                                           \
    sim::reduce_all(#NAME, dst, src, sharedTmpBuffer, pl, static_cast<std::uint32_t>(srcRepStride), OP, NPUKB_IDXVAL,  \
                    false, file, line);                                                                                \
    }                                                                                                                   \
  }

#define NPUKB_IDXVAL false
#define NPUKB_IDXARG
NPUKB_REDUCE_ALL(ReduceSum, sim::Red::Sum, )
#undef NPUKB_IDXARG
#undef NPUKB_IDXVAL
#define NPUKB_IDXVAL calIndex
#define NPUKB_IDXARG , calIndex
#define NPUKB_CALIDX_PARAM , bool calIndex = false
NPUKB_REDUCE_ALL(ReduceMax, sim::Red::Max, NPUKB_CALIDX_PARAM)
NPUKB_REDUCE_ALL(ReduceMin, sim::Red::Min, NPUKB_CALIDX_PARAM)
#undef NPUKB_CALIDX_PARAM
#undef NPUKB_IDXARG
#undef NPUKB_IDXVAL

// ---- special registers of the reductions ----------------------------------------------------------
// The sum of the last ReduceSum count form (as the element type T).
template <typename T>
inline T GetReduceRepeatSumSpr() {
  static_assert(sim::red_types<T>, "GetReduceRepeatSumSpr: unsupported data type (half, float)");
  T v;
  const std::uint64_t b = npukb::kern::state().acc_val;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}
// The extreme of the last ReduceRepeat<MAX/MIN> (WholeReduceMax/Min) over all its repeats and its flat
// index (index bits in a T), or the extreme of the last ReduceMax/ReduceMin.
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
  static_assert(sim::red_types<T>, "GetReduceRepeatMaxMinSpr: unsupported data type (half, float)");
  const npukb::kern::KState& s = npukb::kern::state();
  std::memcpy(&maxMinValue, &s.max_min_value, sizeof(T));
  std::memcpy(&maxMinIndex, &s.max_min_index, sizeof(T));
}

// ---- WholeReduce / ReduceRepeat: one result per repeat --------------------------------------------
namespace sim {
template <typename T>
inline void whole_reduce(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, bool isSetMask,
                         const std::uint64_t* bits, std::uint64_t cont, std::int32_t repeat, std::int32_t dstRepStride,
                         std::int32_t srcBlkStride, std::int32_t srcRepStride, Red op, ReduceOrder order, const char* file, int line) {
  Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / sizeof(T), file, line);
  if (pl.empty()) return;
  const Opnd os = opnd(src, static_cast<std::uint32_t>(srcBlkStride), static_cast<std::uint32_t>(srcRepStride));
  const std::uint64_t es = os.extent(pl);
  check_local(api, "src", src, es, true, file, line);
  // unit of dstRepStride: value+index pair (2*sizeof(T)), value only (sizeof(T)), index only (4 bytes)
  const bool pair = op != Red::Sum && (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
  const std::uint32_t unit = op == Red::Sum ? sizeof(T) : pair ? 2 * sizeof(T) : order == ReduceOrder::ORDER_ONLY_INDEX ? 4 : sizeof(T);
  const std::uint64_t ed = static_cast<std::uint64_t>(pl.repeats - 1) * static_cast<std::uint32_t>(dstRepStride) * unit + unit;
  check_local(api, "dst", dst, ed, false, file, line);
  if (dst.loc().addr % unit != 0) {
    npukb::violation(api, "unaligned UB address: dst starts at UB offset " + npukb::kern::num(dst.loc().addr) +
                     ", which is not " + npukb::kern::num(unit) + "-byte aligned (the size of one result)", file, line);
  }
  // all results are computed from the sources before any is written (dst may overlap src)
  std::vector<RedOut<T>> res(pl.repeats);
  for (std::uint32_t r = 0; r < pl.repeats; ++r) res[r] = reduce_span<T>(os, pl, r, 0, pl.per_rep, op);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  // The extreme of the whole instruction and its flat element index go to the register that
  // GetReduceRepeatMaxMinSpr / GetReduceMaxMinCount read (ReduceRepeat MAX/MIN only).
  bool have_best = false;
  T best{};
  std::uint32_t best_idx = 0;
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    const RedOut<T>& o = res[r];
    if (!o.any) continue;
    if (op != Red::Sum && (!have_best || (op == Red::Max ? o.value > best : o.value < best))) {
      best = o.value;
      best_idx = r * pl.per_rep + o.index;
      have_best = true;
    }
    std::uint8_t* out = d + static_cast<std::uint64_t>(r) * static_cast<std::uint32_t>(dstRepStride) * unit;
    if (op == Red::Sum || order == ReduceOrder::ORDER_ONLY_VALUE) st<T>(out, o.value);
    else if (order == ReduceOrder::ORDER_ONLY_INDEX) st<std::uint32_t>(out, o.index);
    else if (order == ReduceOrder::ORDER_VALUE_INDEX) { st<T>(out, o.value); st<T>(out + sizeof(T), index_bits<T>(o.index)); }
    else { st<T>(out, index_bits<T>(o.index)); st<T>(out + sizeof(T), o.value); }
  }
  if (op != Red::Sum) {
    npukb::kern::KState& s = npukb::kern::state();
    s.max_min_value = raw_of<T>(best);
    s.max_min_index = raw_of<T>(index_bits<T>(best_idx));
  }
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim

template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[], const std::int32_t repeatTimes,
                           const std::int32_t dstRepStride, const std::int32_t srcBlkStride, const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    WholeReduceSum<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTimes, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "WholeReduceSum: unsupported data type (half, float)");
    sim::whole_reduce("WholeReduceSum", dst, src, isSetMask, mask, 0, repeatTimes, dstRepStride, srcBlkStride, srcRepStride,
                      sim::Red::Sum, ReduceOrder::ORDER_ONLY_VALUE, file, line);
  }
}
template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t mask, const std::int32_t repeatTimes,
                           const std::int32_t dstRepStride, const std::int32_t srcBlkStride, const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    WholeReduceSum<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTimes, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "WholeReduceSum: unsupported data type (half, float)");
    sim::whole_reduce("WholeReduceSum", dst, src, isSetMask, nullptr, static_cast<std::uint64_t>(mask), repeatTimes, dstRepStride,
                      srcBlkStride, srcRepStride, sim::Red::Sum, ReduceOrder::ORDER_ONLY_VALUE, file, line);
  }
}
#define NPUKB_WHOLE_MM(NAME, OP)                                                                                       \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],                   \
                   const std::int32_t repeatTimes, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,   \
                   const std::int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { NPUKB_CALLER;                                                                                 \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTimes, dstRepStride, srcBlkStride, srcRepStride, order);\
    } else {                                                                                                            \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::whole_reduce(#NAME, dst, src, isSetMask, mask, 0, repeatTimes, dstRepStride, srcBlkStride, srcRepStride, OP,   \
                      order, file, line);                                                                              \
    }                                                                                                                   \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t mask,                      \
                   const std::int32_t repeatTimes, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,   \
                   const std::int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { NPUKB_CALLER;                                                                                 \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTimes, dstRepStride, srcBlkStride, srcRepStride, order);\
    } else {                                                                                                            \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::whole_reduce(#NAME, dst, src, isSetMask, nullptr, static_cast<std::uint64_t>(mask), repeatTimes, dstRepStride, \
                      srcBlkStride, srcRepStride, OP, order, file, line);                                              \
    }                                                                                                                   \
  }
NPUKB_WHOLE_MM(WholeReduceMax, sim::Red::Max)
NPUKB_WHOLE_MM(WholeReduceMin, sim::Red::Min)

// ReduceRepeat<reduceType, T, U, isSetMask>: the documented name of the WholeReduce instructions.
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint64_t mask[], const std::int32_t repeatTime,
                         const std::int32_t dstRepStride, const std::int32_t srcBlkStride, const std::int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    ReduceRepeat<reduceType, PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
  } else {
    static_assert(sim::red_types<T>, "ReduceRepeat: unsupported data type (half, float)");
    static_assert(std::is_same_v<T, U>, "ReduceRepeat: dst and src must have the same data type");
    sim::whole_reduce("ReduceRepeat", dst, src, isSetMask, mask, 0, repeatTime, dstRepStride, srcBlkStride, srcRepStride,
                      sim::red_of(reduceType), reduceType == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, file, line);
  }
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::int32_t mask, const std::int32_t repeatTime,
                         const std::int32_t dstRepStride, const std::int32_t srcBlkStride, const std::int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    ReduceRepeat<reduceType, PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);
  } else {
    static_assert(sim::red_types<T>, "ReduceRepeat: unsupported data type (half, float)");
    static_assert(std::is_same_v<T, U>, "ReduceRepeat: dst and src must have the same data type");
    sim::whole_reduce("ReduceRepeat", dst, src, isSetMask, nullptr, static_cast<std::uint64_t>(mask), repeatTime, dstRepStride,
                      srcBlkStride, srcRepStride, sim::red_of(reduceType),
                      reduceType == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, file, line);
  }
}

// RepeatReduceSum: the name of ReduceRepeat<ReduceType::SUM> before CANN 9.1, with repeatTime before
// mask and a dstBlkStride that has no effect (one result per repeat; dstRepStride in dst elements).
template <typename T, bool isSetMask = true>
inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTime,
                            const std::int32_t mask, const std::int32_t dstBlkStride, const std::int32_t srcBlkStride,
                            const std::int32_t dstRepStride, const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    RepeatReduceSum<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), repeatTime, mask, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "RepeatReduceSum: unsupported data type (half, float)");
    (void)dstBlkStride;
    sim::whole_reduce("RepeatReduceSum", dst, src, isSetMask, nullptr, static_cast<std::uint64_t>(mask), repeatTime, dstRepStride,
                      srcBlkStride, srcRepStride, sim::Red::Sum, ReduceOrder::ORDER_ONLY_VALUE, file, line);
  }
}

// ---- BlockReduce / ReduceDataBlock: one result per 32-byte block, 8 per repeat --------------------------
namespace sim {
template <typename T>
inline void block_reduce(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, std::int32_t repeat, bool isSetMask,
                         const std::uint64_t* bits, std::uint64_t cont, std::int32_t dstRepStride, std::int32_t srcBlkStride,
                         std::int32_t srcRepStride, Red op, const char* file, int line) {
  const Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / sizeof(T), file, line);
  if (pl.empty()) return;
  const Opnd os = opnd(src, static_cast<std::uint32_t>(srcBlkStride), static_cast<std::uint32_t>(srcRepStride));
  const std::uint64_t es = os.extent(pl);
  check_local(api, "src", src, es, true, file, line);
  const std::uint64_t ed = (static_cast<std::uint64_t>(pl.repeats - 1) * static_cast<std::uint32_t>(dstRepStride) + 1) * 8 * sizeof(T);
  check_local(api, "dst", dst, ed, false, file, line);
  const std::uint32_t epb = 32 / sizeof(T);
  std::vector<RedOut<T>> res(static_cast<std::size_t>(pl.repeats) * 8);
  for (std::uint32_t r = 0; r < pl.repeats; ++r)
    for (std::uint32_t b = 0; b < 8; ++b) res[r * 8 + b] = reduce_span<T>(os, pl, r, b * epb, (b + 1) * epb, op);
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    T* o = dst.ptr() + static_cast<std::uint64_t>(r) * static_cast<std::uint32_t>(dstRepStride) * 8;
    for (std::uint32_t b = 0; b < 8; ++b)
      if (res[r * 8 + b].any) o[b] = res[r * 8 + b].value;
  }
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim
#define NPUKB_BLOCK_RED(NAME, OP)                                                                                      \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTimes,               \
                   const std::int32_t mask, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,          \
                   const std::int32_t srcRepStride) { NPUKB_CALLER;                                                \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), repeatTimes, mask, dstRepStride, srcBlkStride, srcRepStride);\
    } else {                                                                                                            \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::block_reduce(#NAME, dst, src, repeatTimes, isSetMask, nullptr, static_cast<std::uint64_t>(mask), dstRepStride, \
                      srcBlkStride, srcRepStride, OP, file, line);                                                     \
    }                                                                                                                   \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTimes,               \
                   const std::uint64_t mask[], const std::int32_t dstRepStride, const std::int32_t srcBlkStride,       \
                   const std::int32_t srcRepStride) { NPUKB_CALLER;                                                \
    if constexpr (sim::has_trait<T>) {  /* tensors of a TensorTrait: the LiteType form */                               \
      NAME<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), repeatTimes, mask, dstRepStride, srcBlkStride, srcRepStride);\
    } else {                                                                                                            \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::block_reduce(#NAME, dst, src, repeatTimes, isSetMask, mask, 0, dstRepStride, srcBlkStride, srcRepStride, OP,   \
                      file, line);                                                                                     \
    }                                                                                                                   \
  }
NPUKB_BLOCK_RED(BlockReduceSum, sim::Red::Sum)
NPUKB_BLOCK_RED(BlockReduceMax, sim::Red::Max)
NPUKB_BLOCK_RED(BlockReduceMin, sim::Red::Min)

// ---- PairReduceSum: sums of adjacent (even, odd) element pairs, half a repeat out per repeat ----------
namespace sim {
template <typename T>
inline void pair_reduce(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::int32_t repeat, bool isSetMask,
                        const std::uint64_t* bits, std::uint64_t cont, std::int32_t dstRepStride, std::int32_t srcBlkStride,
                        std::int32_t srcRepStride, const char* file, int line) {
  const char* api = "PairReduceSum";
  const Plan pl = make_plan(api, isSetMask, bits, cont, repeat, 256 / sizeof(T), file, line);
  if (pl.empty()) return;
  const Opnd os = opnd(src, static_cast<std::uint32_t>(srcBlkStride), static_cast<std::uint32_t>(srcRepStride));
  const std::uint64_t es = os.extent(pl);
  check_local(api, "src", src, es, true, file, line);
  // dstRepStride is in units of one reduced repeat (128 bytes)
  const std::uint32_t half_rep = pl.per_rep / 2;
  const std::uint64_t ed = (static_cast<std::uint64_t>(pl.repeats - 1) * static_cast<std::uint32_t>(dstRepStride) * half_rep +
                            half_rep) * sizeof(T);
  check_local(api, "dst", dst, ed, true, file, line);
  // every source element is read before any result is written (dst may overlap src)
  std::vector<T> acc(static_cast<std::size_t>(pl.repeats) * half_rep, T(0));
  std::vector<unsigned char> any(acc.size(), 0);
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    const std::size_t o = static_cast<std::size_t>(r) * half_rep + k / 2;
    acc[o] = static_cast<T>(acc[o] + ld<T>(os.p + os.off(r, k)));  // one addition in T per pair
    any[o] = 1;
  });
  T* d = dst.ptr();
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    for (std::uint32_t k = 0; k < half_rep; ++k) {
      const std::size_t o = static_cast<std::size_t>(r) * half_rep + k;
      if (any[o]) d[static_cast<std::uint64_t>(r) * static_cast<std::uint32_t>(dstRepStride) * half_rep + k] = acc[o];
    }
  }
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim

template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTime,
                          const std::uint64_t mask[], const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                          const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    PairReduceSum<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "PairReduceSum: unsupported data type (half, float)");
    sim::pair_reduce(dst, src, repeatTime, isSetMask, mask, 0, dstRepStride, srcBlkStride, srcRepStride, file, line);
  }
}
template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTime,
                          const std::int32_t mask, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                          const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    PairReduceSum<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "PairReduceSum: unsupported data type (half, float)");
    sim::pair_reduce(dst, src, repeatTime, isSetMask, nullptr, static_cast<std::uint64_t>(mask), dstRepStride, srcBlkStride,
                     srcRepStride, file, line);
  }
}

// ---- ReduceDataBlock / ReducePairElem: the documented names with a ReduceType template parameter ----
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint64_t mask[],
                            const std::int32_t repeatTime, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                            const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    ReduceDataBlock<reduceType, PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "ReduceDataBlock: unsupported data type (half, float)");
    static_assert(std::is_same_v<T, U>, "ReduceDataBlock: dst and src must have the same data type");
    sim::block_reduce("ReduceDataBlock", dst, src, repeatTime, isSetMask, mask, 0, dstRepStride, srcBlkStride, srcRepStride,
                      sim::red_of(reduceType), file, line);
  }
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::int32_t mask,
                            const std::int32_t repeatTime, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                            const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    ReduceDataBlock<reduceType, PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "ReduceDataBlock: unsupported data type (half, float)");
    static_assert(std::is_same_v<T, U>, "ReduceDataBlock: dst and src must have the same data type");
    sim::block_reduce("ReduceDataBlock", dst, src, repeatTime, isSetMask, nullptr, static_cast<std::uint64_t>(mask), dstRepStride,
                      srcBlkStride, srcRepStride, sim::red_of(reduceType), file, line);
  }
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint64_t mask[],
                           const std::int32_t repeatTime, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                           const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    ReducePairElem<reduceType, PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "ReducePairElem: unsupported data type (half, float)");
    static_assert(std::is_same_v<T, U>, "ReducePairElem: dst and src must have the same data type");
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM is supported");
    sim::pair_reduce(dst, src, repeatTime, isSetMask, mask, 0, dstRepStride, srcBlkStride, srcRepStride, file, line);
  }
}
template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::int32_t mask,
                           const std::int32_t repeatTime, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                           const std::int32_t srcRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    ReducePairElem<reduceType, PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);
  } else {
    static_assert(sim::red_types<T>, "ReducePairElem: unsupported data type (half, float)");
    static_assert(std::is_same_v<T, U>, "ReducePairElem: dst and src must have the same data type");
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM is supported");
    sim::pair_reduce(dst, src, repeatTime, isSetMask, nullptr, static_cast<std::uint64_t>(mask), dstRepStride, srcBlkStride,
                     srcRepStride, file, line);
  }
}

}  // namespace AscendC
