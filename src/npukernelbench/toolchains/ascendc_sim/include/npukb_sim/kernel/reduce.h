// npukb_sim/kernel/reduce.h -- ReduceSum/Max/Min, WholeReduceSum/Max/Min, BlockReduceSum/Max/Min and
// PairReduceSum (the library's Sum, Mean and pattern reductions are in lib_reduce.h). Clean-room part of
// ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

enum class Red { Sum, Max, Min };

template <typename T>
constexpr bool red_types = one_of<T, half, float>;

// Index stored in a T-sized slot (the hardware writes the integer bits of the index).
template <typename T>
inline T index_bits(std::uint32_t idx) {
  T v;
  if constexpr (sizeof(T) == 2) { const std::uint16_t i = static_cast<std::uint16_t>(idx); std::memcpy(&v, &i, 2); }
  else { std::memcpy(&v, &idx, 4); }
  return v;
}

// Reduce the plan's elements of src into one value (+ index of the first extreme).
template <typename T>
inline void reduce_plan(const Opnd& os, const Plan& pl, Red op, float& acc, std::uint32_t& idx) {
  bool first = true;
  acc = 0.0f;
  idx = 0;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    const float v = static_cast<float>(ld<T>(os.p + os.off(r, k)));
    const std::uint32_t flat = r * pl.per_rep + k;
    if (op == Red::Sum) acc += v;
    else if (first || (op == Red::Max ? v > acc : v < acc)) { acc = v; idx = flat; }
    first = false;
  });
}

template <typename T>
inline void reduce_all(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
                       const Plan& pl, std::uint32_t srcRepStride, Red op, bool calIndex, const char* file, int line) {
  if (pl.empty()) return;
  const Opnd os = opnd(src, 1, srcRepStride);
  const std::uint64_t es = os.extent(pl);
  check_local(api, "src", src, es, true, file, line);
  check_local(api, "dst", dst, sizeof(T) * (calIndex || op != Red::Sum ? 2 : 1), false, file, line);
  // the hardware keeps one partial per repeat in the work tensor
  const std::uint64_t wbytes = static_cast<std::uint64_t>(pl.repeats) * sizeof(T) * (op == Red::Sum ? 1 : 2);
  check_local(api, "sharedTmpBuffer", work, wbytes, true, file, line);
  float acc;
  std::uint32_t idx;
  reduce_plan<T>(os, pl, op, acc, idx);
  dst.ptr()[0] = static_cast<T>(acc);
  if (op != Red::Sum && calIndex) dst.ptr()[1] = index_bits<T>(idx);
  const npukb::kern::Span sp = vspan(src, es);
  const npukb::kern::Span dp[2] = {vspan(dst, 2 * sizeof(T)), vspan(work, wbytes)};
  const std::uint32_t levels = pl.repeats > 1 ? 2 : 1;
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats * levels, &sp, 1, dp, 2);
}
}  // namespace sim

#define NPUKB_REDUCE_ALL(NAME, OP, HASIDX)                                                                            \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,         \
                   const std::int32_t count HASIDX) { NPUKB_CALLER;                                                    \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::check_count<T>(#NAME, count, file, line);                                                                     \
    const sim::Plan pl = sim::count_plan(static_cast<std::uint64_t>(count), 256 / sizeof(T));                          \
    sim::reduce_all(#NAME, dst, src, sharedTmpBuffer, pl, 8, OP, NPUKB_IDXVAL, file, line);                            \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,         \
                   const std::uint64_t mask[], const std::int32_t repeatTimes, const std::int32_t srcRepStride          \
                   HASIDX) { NPUKB_CALLER;                                                                             \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    const sim::Plan pl = sim::make_plan(#NAME, true, mask, 0, repeatTimes, 256 / sizeof(T), file, line);               \
    sim::reduce_all(#NAME, dst, src, sharedTmpBuffer, pl, static_cast<std::uint32_t>(srcRepStride), OP, NPUKB_IDXVAL,  \
                    file, line);                                                                                       \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,         \
                   const std::int32_t mask, const std::int32_t repeatTimes, const std::int32_t srcRepStride             \
                   HASIDX) { NPUKB_CALLER;                                                                             \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    const sim::Plan pl = sim::make_plan(#NAME, true, nullptr, static_cast<std::uint64_t>(mask), repeatTimes,           \
                                        256 / sizeof(T), file, line);                                                  \
    sim::reduce_all(#NAME, dst, src, sharedTmpBuffer, pl, static_cast<std::uint32_t>(srcRepStride), OP, NPUKB_IDXVAL,  \
                    file, line);                                                                                       \
  }

#define NPUKB_IDXVAL false
NPUKB_REDUCE_ALL(ReduceSum, sim::Red::Sum, )
#undef NPUKB_IDXVAL
#define NPUKB_IDXVAL calIndex
#define NPUKB_CALIDX_PARAM , bool calIndex = false
NPUKB_REDUCE_ALL(ReduceMax, sim::Red::Max, NPUKB_CALIDX_PARAM)
NPUKB_REDUCE_ALL(ReduceMin, sim::Red::Min, NPUKB_CALIDX_PARAM)
#undef NPUKB_CALIDX_PARAM
#undef NPUKB_IDXVAL

// ---- WholeReduce: one result per repeat ---------------------------------------------------------
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
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  // The extreme of the whole instruction and its flat element index go to the register that
  // GetReduceMaxMinCount reads (WholeReduceMax/Min only).
  float best = 0.0f;
  std::uint32_t best_idx = 0;
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    Plan one = pl;
    one.repeats = 1;
    if (one.counter) { one.total = pl.count_in(r); }
    const Opnd orow{os.p + static_cast<std::uint64_t>(r) * os.rep * 32u, os.esz, os.blk, os.rep};
    float acc;
    std::uint32_t idx;
    reduce_plan<T>(orow, one, op, acc, idx);
    if (op != Red::Sum && (r == 0 || (op == Red::Max ? acc > best : acc < best))) {
      best = acc;
      best_idx = r * pl.per_rep + idx;
    }
    std::uint8_t* o = d + static_cast<std::uint64_t>(r) * static_cast<std::uint32_t>(dstRepStride) * unit;
    const T v = static_cast<T>(acc);
    if (op == Red::Sum || order == ReduceOrder::ORDER_ONLY_VALUE) st<T>(o, v);
    else if (order == ReduceOrder::ORDER_ONLY_INDEX) st<std::uint32_t>(o, idx);
    else if (order == ReduceOrder::ORDER_VALUE_INDEX) { st<T>(o, v); st<T>(o + sizeof(T), index_bits<T>(idx)); }
    else { st<T>(o, index_bits<T>(idx)); st<T>(o + sizeof(T), v); }
  }
  if (op != Red::Sum) {
    npukb::kern::KState& s = npukb::kern::state();
    const T bv = static_cast<T>(best);
    const T bi = index_bits<T>(best_idx);
    s.max_min_value = 0;
    s.max_min_index = 0;
    std::memcpy(&s.max_min_value, &bv, sizeof(T));
    std::memcpy(&s.max_min_index, &bi, sizeof(T));
  }
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim

template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[], const std::int32_t repeatTimes,
                           const std::int32_t dstRepStride, const std::int32_t srcBlkStride, const std::int32_t srcRepStride) { NPUKB_CALLER;
  static_assert(sim::red_types<T>, "WholeReduceSum: unsupported data type (half, float)");
  sim::whole_reduce("WholeReduceSum", dst, src, isSetMask, mask, 0, repeatTimes, dstRepStride, srcBlkStride, srcRepStride,
                    sim::Red::Sum, ReduceOrder::ORDER_ONLY_VALUE, file, line);
}
template <typename T, bool isSetMask = true>
inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t mask, const std::int32_t repeatTimes,
                           const std::int32_t dstRepStride, const std::int32_t srcBlkStride, const std::int32_t srcRepStride) { NPUKB_CALLER;
  static_assert(sim::red_types<T>, "WholeReduceSum: unsupported data type (half, float)");
  sim::whole_reduce("WholeReduceSum", dst, src, isSetMask, nullptr, static_cast<std::uint64_t>(mask), repeatTimes, dstRepStride,
                    srcBlkStride, srcRepStride, sim::Red::Sum, ReduceOrder::ORDER_ONLY_VALUE, file, line);
}
#define NPUKB_WHOLE_MM(NAME, OP)                                                                                       \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[],                   \
                   const std::int32_t repeatTimes, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,   \
                   const std::int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { NPUKB_CALLER;                                                                                 \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::whole_reduce(#NAME, dst, src, isSetMask, mask, 0, repeatTimes, dstRepStride, srcBlkStride, srcRepStride, OP,   \
                      order, file, line);                                                                              \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t mask,                      \
                   const std::int32_t repeatTimes, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,   \
                   const std::int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { NPUKB_CALLER;                                                                                 \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::whole_reduce(#NAME, dst, src, isSetMask, nullptr, static_cast<std::uint64_t>(mask), repeatTimes, dstRepStride, \
                      srcBlkStride, srcRepStride, OP, order, file, line);                                              \
  }
NPUKB_WHOLE_MM(WholeReduceMax, sim::Red::Max)
NPUKB_WHOLE_MM(WholeReduceMin, sim::Red::Min)

// ---- BlockReduce: one result per 32-byte block, 8 per repeat ------------------------------------
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
  float acc[8];
  bool any[8];
  std::uint32_t cur = ~0u;
  auto flush = [&](std::uint32_t r) {
    T* o = dst.ptr() + static_cast<std::uint64_t>(r) * static_cast<std::uint32_t>(dstRepStride) * 8;
    for (int b = 0; b < 8; ++b) if (any[b]) o[b] = static_cast<T>(acc[b]);
  };
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    if (r != cur) {
      if (cur != ~0u) flush(cur);
      cur = r;
      for (int b = 0; b < 8; ++b) { acc[b] = 0.0f; any[b] = false; }
    }
    const std::uint32_t b = k / epb;
    const float v = static_cast<float>(ld<T>(os.p + os.off(r, k)));
    if (op == Red::Sum) acc[b] += v;
    else if (!any[b] || (op == Red::Max ? v > acc[b] : v < acc[b])) acc[b] = v;
    any[b] = true;
  });
  if (cur != ~0u) flush(cur);
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim

#define NPUKB_BLOCK_RED(NAME, OP)                                                                                      \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTimes,               \
                   const std::int32_t mask, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,          \
                   const std::int32_t srcRepStride) { NPUKB_CALLER;                                                \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::block_reduce(#NAME, dst, src, repeatTimes, isSetMask, nullptr, static_cast<std::uint64_t>(mask), dstRepStride, \
                      srcBlkStride, srcRepStride, OP, file, line);                                                     \
  }                                                                                                                    \
  template <typename T, bool isSetMask = true>                                                                         \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTimes,               \
                   const std::uint64_t mask[], const std::int32_t dstRepStride, const std::int32_t srcBlkStride,       \
                   const std::int32_t srcRepStride) { NPUKB_CALLER;                                                \
    static_assert(sim::red_types<T>, #NAME ": unsupported data type (half, float)");                                    \
    sim::block_reduce(#NAME, dst, src, repeatTimes, isSetMask, mask, 0, dstRepStride, srcBlkStride, srcRepStride, OP,   \
                      file, line);                                                                                     \
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
  std::vector<float> acc(static_cast<std::size_t>(pl.repeats) * half_rep, 0.0f);
  std::vector<unsigned char> any(acc.size(), 0);
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    const std::size_t o = static_cast<std::size_t>(r) * half_rep + k / 2;
    acc[o] += static_cast<float>(ld<T>(os.p + os.off(r, k)));
    any[o] = 1;
  });
  T* d = dst.ptr();
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    for (std::uint32_t k = 0; k < half_rep; ++k) {
      const std::size_t o = static_cast<std::size_t>(r) * half_rep + k;
      if (any[o]) d[static_cast<std::uint64_t>(r) * static_cast<std::uint32_t>(dstRepStride) * half_rep + k] = static_cast<T>(acc[o]);
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
  static_assert(sim::red_types<T>, "PairReduceSum: unsupported data type (half, float)");
  sim::pair_reduce(dst, src, repeatTime, isSetMask, mask, 0, dstRepStride, srcBlkStride, srcRepStride, file, line);
}
template <typename T, bool isSetMask = true>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::int32_t repeatTime,
                          const std::int32_t mask, const std::int32_t dstRepStride, const std::int32_t srcBlkStride,
                          const std::int32_t srcRepStride) { NPUKB_CALLER;
  static_assert(sim::red_types<T>, "PairReduceSum: unsupported data type (half, float)");
  sim::pair_reduce(dst, src, repeatTime, isSetMask, nullptr, static_cast<std::uint64_t>(mask), dstRepStride, srcBlkStride,
                   srcRepStride, file, line);
}

}  // namespace AscendC
