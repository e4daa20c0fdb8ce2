// npukb_sim/kernel/lib_reduce.h -- the reduction library of the Atlas A2 / A3 training series: Sum and
// Mean over the last axis (SumParams / MeanParams), ReduceXorSum, and the pattern reductions ReduceSum,
// ReduceMean, ReduceMax, ReduceMin, ReduceAny, ReduceAll and ReduceProd over a 2-D source with the
// pattern AscendC::Pattern::Reduce::AR (reduce the last axis) or RA (reduce the first). Clean-room part of
// ascendc-sim, written from the API pages' formulas and constraints.
//
// Sum / Mean: per row of an [outter, inner] source (inner = n rounded up to 32 bytes, as the page's
// formula gives it) the sum / mean of its first n elements, added as the page describes: pairwise within
// each 256-byte repeat (data0 + data1, data2 + data3, ...), then the repeats' partial sums pairwise, every
// addition rounded to the accumulation type (T; Mean's accType float for a half source converts first);
// Mean divides the sum by n once. ReduceXorSum: the sum of src0 ^ src1 (int16_t) over calCount elements,
// saturated to [-32768, 32767]. The pattern reductions read srcShape {d0, d1}, the real shape, with rows
// stored 32-byte aligned (srcInnerPad = true, the only value the A2 / A3 series take): AR reduces each row
// (d0 results), RA each column (d1 results); sums and products pairwise over the reduced axis (within
// 256-byte repeats, then across them) in T, Mean divides by the reduced length, Any / All (sources of 0
// and 1 only) are the maximum / minimum. The high-level ReduceSum / ReduceMax / ReduceMin are overloads of
// the basic instructions of reduce.h: their second template parameter is a pattern type, not a bool, so
// each call selects one set.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "npukb_sim/kernel/lib_support.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/reduce_pattern.h"

namespace AscendC {

struct SumParams {
  std::uint32_t outter = 1;
  std::uint32_t inner = 0;
  std::uint32_t n = 0;
};
struct MeanParams {
  std::uint32_t outter = 1;
  std::uint32_t inner = 0;
  std::uint32_t n = 0;
};

// The reduce patterns of the pattern reductions (the A2 / A3 series take AR and RA).
namespace Pattern {
namespace Reduce {
struct AR {
  static constexpr ReducePattern value = ReducePattern::AR;
  static constexpr std::uint32_t dim = 2;
};
struct RA {
  static constexpr ReducePattern value = ReducePattern::RA;
  static constexpr std::uint32_t dim = 2;
};
}  // namespace Reduce
}  // namespace Pattern

namespace sim {

// Pairwise reduction of v (padded with the identity): (v0 op v1), (v2 op v3), ... until one value.
template <typename W, typename Op>
inline W pairwise(std::vector<W> v, W identity, Op op) {
  if (v.empty()) return identity;
  std::size_t p = 1;
  while (p < v.size()) p *= 2;
  v.resize(p, identity);
  while (v.size() > 1) {
    std::vector<W> next(v.size() / 2);
    for (std::size_t i = 0; i < next.size(); ++i) next[i] = op(v[2 * i], v[2 * i + 1]);
    v.swap(next);
  }
  return v[0];
}
// The vector reductions' order: pairwise within each repeat of per_rep elements, then across repeats.
template <typename W, typename Op>
inline W repeat_tree(const std::vector<W>& x, std::size_t per_rep, W identity, Op op) {
  std::vector<W> partials;
  for (std::size_t s = 0; s < x.size(); s += per_rep) {
    const std::size_t e = s + per_rep < x.size() ? s + per_rep : x.size();
    partials.push_back(pairwise(std::vector<W>(x.begin() + static_cast<std::ptrdiff_t>(s),
                                               x.begin() + static_cast<std::ptrdiff_t>(e)), identity, op));
  }
  return pairwise(partials, identity, op);
}
// Addition rounded to W (half: each sum rounded to half, as the vector unit does).
template <typename W>
inline W add_in(W a, W b) { return static_cast<W>(static_cast<float>(a) + static_cast<float>(b)); }

template <typename T>
constexpr bool lib_reduce_types = one_of<T, half, float>;

// Sum / Mean over the rows of [outter, inner].
template <typename T, typename Acc>
inline void row_reduce(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                       const LocalTensor<std::uint8_t>* tmp, std::uint32_t outter, std::uint32_t inner, std::uint32_t n,
                       bool mean, std::uint64_t need, const char* file, int line) {
  const std::uint32_t want = npukb_lib::AlignUp(n * sizeof(T), 32) / sizeof(T);
  if (n == 0 || n > inner) {
    npukb::violation(api, "n " + npukb::kern::num(n) + " must be in [1, inner = " + npukb::kern::num(inner) + "]", file, line);
  }
  if (inner != want) {
    npukb::violation(api, "inner " + npukb::kern::num(inner) + " is not n = " + npukb::kern::num(n) +
                     " rounded up to 32 bytes (" + npukb::kern::num(want) + "), as the page's formula requires", file, line);
  }
  if (outter == 0) return;
  const std::uint64_t sbytes = static_cast<std::uint64_t>(outter) * inner * sizeof(T);
  const std::uint64_t dbytes = static_cast<std::uint64_t>(outter) * sizeof(T);
  check_local(api, "srcTensor", src, sbytes, true, file, line);
  check_local(api, "dstTensor", dst, dbytes, true, file, line);
  check_no_overlap(api, "dstTensor", dst, dbytes, "srcTensor", src, sbytes, file, line);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, mean ? "Mean needs (GetMeanMaxMinTmpSize)" : "Sum needs (GetSumMaxMinTmpSize)", file,
                     line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "srcTensor", src, sbytes, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "dstTensor", dst, dbytes, file, line);
  } else {
    check_framework_tmp(api, need, mean ? "GetMeanMaxMinTmpSize's minimum" : "GetSumMaxMinTmpSize's minimum", file, line);
  }
  std::vector<T> out(outter);
  std::vector<Acc> row(n);
  for (std::uint32_t r = 0; r < outter; ++r) {
    for (std::uint32_t k = 0; k < n; ++k) row[k] = static_cast<Acc>(src.ptr()[static_cast<std::uint64_t>(r) * inner + k]);
    const Acc s = repeat_tree(row, 256 / sizeof(Acc), static_cast<Acc>(0), add_in<Acc>);
    out[r] = static_cast<T>(mean ? static_cast<float>(s) / static_cast<float>(n) : static_cast<float>(s));
  }
  std::memcpy(dst.ptr(), out.data(), dbytes);
  const npukb::kern::Span sp = vspan(src, sbytes), dp = vspan(dst, dbytes);
  const std::uint32_t reps = static_cast<std::uint32_t>((static_cast<std::uint64_t>(outter) * inner * sizeof(Acc) + 255) / 256);
  lib_cost(1, (sizeof(Acc) != sizeof(T) ? 4 : 2) + (mean ? 1 : 0), kLibReduce * 2 + (mean ? kLibSimple : 0.0),
           static_cast<std::uint64_t>(reps) * 64, &sp, 1, &dp, 1);
}

// The pattern reductions.
enum class PatOp { Sum, Mean, Max, Min, Any, All, Prod };

template <class pattern>
constexpr bool is_ar = std::is_same_v<pattern, Pattern::Reduce::AR>;
template <class pattern>
constexpr bool reduce_pattern_ok = std::is_same_v<pattern, Pattern::Reduce::AR> || std::is_same_v<pattern, Pattern::Reduce::RA>;

template <typename T, class pattern, bool isReuseSource>
inline void pattern_reduce(const char* api, PatOp op, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LocalTensor<std::uint8_t>* tmp, const std::uint32_t srcShape[], bool srcInnerPad,
                           const char* file, int line) {
  constexpr bool ar = is_ar<pattern>;
  if (!srcInnerPad) {
    npukb::violation(api, "srcInnerPad = false: the Atlas A2 / A3 series support only srcInnerPad = true (the rows "
                     "32-byte aligned in memory)", file, line);
  }
  const std::uint32_t d0 = srcShape[0], d1 = srcShape[1];
  if (d0 == 0 || d1 == 0) npukb::violation(api, "srcShape has an empty dimension", file, line);
  const std::uint32_t stride = npukb_lib::ReduceRowStride(d1, sizeof(T));
  const std::uint64_t sbytes = (static_cast<std::uint64_t>(d0 - 1) * stride + d1) * sizeof(T);
  const std::uint32_t outs = ar ? d0 : d1;
  const std::uint64_t dbytes = static_cast<std::uint64_t>(outs) * sizeof(T);
  check_local(api, "srcTensor", src, sbytes, true, file, line);
  check_local(api, "dstTensor", dst, dbytes, true, file, line);
  check_no_overlap(api, "dstTensor", dst, dbytes, "srcTensor", src, sbytes, file, line);
  const std::uint64_t need = npukb_lib::ReducePatternTmpBytes(d0, d1, sizeof(T), ar, isReuseSource);
  const std::string helper = std::string("Get") + api + "MaxMinTmpSize";
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, (api + std::string(" needs (") + helper + ")").c_str(), file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "srcTensor", src, sbytes, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "dstTensor", dst, dbytes, file, line);
  } else {
    check_framework_tmp(api, need, (helper + "'s minimum").c_str(), file, line);
  }
  const T* s = src.ptr();
  if (op == PatOp::Any || op == PatOp::All) {
    for (std::uint32_t r = 0; r < d0; ++r) {
      for (std::uint32_t c = 0; c < d1; ++c) {
        const float v = static_cast<float>(s[static_cast<std::uint64_t>(r) * stride + c]);
        if (v != 0.0f && v != 1.0f) {
          npukb::violation(api, "srcTensor[" + npukb::kern::num(r) + "][" + npukb::kern::num(c) + "] is neither 0 nor 1 "
                           "(the page allows only 0 and 1)", file, line);
        }
      }
    }
  }
  std::vector<T> out(outs);
  const std::uint32_t len = ar ? d1 : d0;
  std::vector<T> v(len);
  for (std::uint32_t o = 0; o < outs; ++o) {
    for (std::uint32_t i = 0; i < len; ++i) v[i] = ar ? s[static_cast<std::uint64_t>(o) * stride + i] : s[static_cast<std::uint64_t>(i) * stride + o];
    const std::size_t per = ar ? 256 / sizeof(T) : 1;   // RA: whole rows are added pairwise
    T res;
    switch (op) {
      case PatOp::Sum:
      case PatOp::Mean:
        res = repeat_tree(v, per, static_cast<T>(0), add_in<T>);
        if (op == PatOp::Mean) res = static_cast<T>(static_cast<float>(res) / static_cast<float>(len));
        break;
      case PatOp::Prod:
        res = repeat_tree(v, per, static_cast<T>(1), [](T a, T b) {
          return static_cast<T>(static_cast<float>(a) * static_cast<float>(b)); });
        break;
      case PatOp::Max:
      case PatOp::Any:
        res = repeat_tree(v, per, v[0], [](T a, T b) { return static_cast<float>(b) > static_cast<float>(a) ? b : a; });
        break;
      default:
        res = repeat_tree(v, per, v[0], [](T a, T b) { return static_cast<float>(b) < static_cast<float>(a) ? b : a; });
        break;
    }
    out[o] = res;
  }
  std::memcpy(dst.ptr(), out.data(), dbytes);
  const npukb::kern::Span sp = vspan(src, sbytes), dp = vspan(dst, dbytes);
  const std::uint64_t work = static_cast<std::uint64_t>(d0) * stride * npukb_lib::ReduceWorkSize(sizeof(T));
  lib_cost(1, (sizeof(T) == 1 ? 4 : 2) + (op == PatOp::Mean ? 1 : 0), kLibReduce * 2, (work + 3) / 4, &sp, 1, &dp, 1);
}

}  // namespace sim

// ---- Sum / Mean ----------------------------------------------------------------------------------

template <typename T, std::int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                const SumParams& sumParams) { NPUKB_CALLER;
  static_assert(sim::lib_reduce_types<T>, "Sum: unsupported data type (half, float)");
  sim::row_reduce<T, T>("Sum", dstTensor, srcTensor, &sharedTmpBuffer, sumParams.outter, sumParams.inner, sumParams.n, false,
                        npukb_lib::SumTmpBytes(sumParams.n, sizeof(T)), file, line);
}
template <typename T, std::int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) { NPUKB_CALLER;
  static_assert(sim::lib_reduce_types<T>, "Sum: unsupported data type (half, float)");
  sim::row_reduce<T, T>("Sum", dstTensor, srcTensor, nullptr, sumParams.outter, sumParams.inner, sumParams.n, false,
                        npukb_lib::SumTmpBytes(sumParams.n, sizeof(T)), file, line);
}

#define NPUKB_MEAN_CHECKS                                                                                              \
  static_assert(sim::lib_reduce_types<T>, "Mean: unsupported data type (half, float)");                                \
  static_assert(std::is_same_v<accType, T> || (std::is_same_v<T, half> && std::is_same_v<accType, float>),            \
                "Mean: accType must be T, or float for a half source (never of lower precision than T)")
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, std::int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                 const MeanParams& meanParams) { NPUKB_CALLER;
  NPUKB_MEAN_CHECKS;
  sim::row_reduce<T, accType>("Mean", dstTensor, srcTensor, &sharedTmpBuffer, meanParams.outter, meanParams.inner,
                              meanParams.n, true, npukb_lib::MeanTmpBytes(meanParams.n, sizeof(T), sizeof(accType)), file,
                              line);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, std::int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams) { NPUKB_CALLER;
  NPUKB_MEAN_CHECKS;
  sim::row_reduce<T, accType>("Mean", dstTensor, srcTensor, nullptr, meanParams.outter, meanParams.inner, meanParams.n,
                              true, npukb_lib::MeanTmpBytes(meanParams.n, sizeof(T), sizeof(accType)), file, line);
}
#undef NPUKB_MEAN_CHECKS

// ---- ReduceXorSum --------------------------------------------------------------------------------
namespace sim {
template <typename T, bool isReuseSource>
inline void reduce_xor_sum(LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<std::uint8_t>* tmp, std::uint32_t calCount, const char* file, int line) {
  const char* api = "ReduceXorSum";
  if (calCount > src0.GetSize() || calCount > src1.GetSize()) {
    npukb::violation(api, "calCount " + npukb::kern::num(calCount) + " exceeds src0Tensor (" +
                     npukb::kern::num(src0.GetSize()) + ") or src1Tensor (" + npukb::kern::num(src1.GetSize()) +
                     " elements)", file, line);
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(calCount) * sizeof(T);
  check_local(api, "src0Tensor", src0, bytes, true, file, line);
  check_local(api, "src1Tensor", src1, bytes, true, file, line);
  check_local(api, "dstTensor", dst, sizeof(T), true, file, line);
  check_no_overlap(api, "dstTensor", dst, sizeof(T), "src0Tensor", src0, bytes, file, line);
  check_no_overlap(api, "dstTensor", dst, sizeof(T), "src1Tensor", src1, bytes, file, line);
  const std::uint64_t need = npukb_lib::ReduceXorSumTmpBytes(calCount, isReuseSource);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "ReduceXorSum needs (GetReduceXorSumMaxMinTmpSize)", file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "src0Tensor", src0, bytes, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "src1Tensor", src1, bytes, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "dstTensor", dst, sizeof(T), file, line);
  } else {
    check_framework_tmp(api, need, "GetReduceXorSumMaxMinTmpSize's minimum", file, line);
  }
  long long total = 0;
  for (std::uint32_t i = 0; i < calCount; ++i) total += static_cast<std::int16_t>(src0.ptr()[i] ^ src1.ptr()[i]);
  if (total > 32767) total = 32767;
  if (total < -32768) total = -32768;
  dst.ptr()[0] = static_cast<T>(total);
  const npukb::kern::Span sp[2] = {vspan(src0, bytes), vspan(src1, bytes)};
  const npukb::kern::Span dp = vspan(dst, sizeof(T));
  lib_cost(1, 5, kLibSimple * 3 + kLibReduce * 2, calCount, sp, 2, &dp, 1);
}
}  // namespace sim

template <typename T, bool isReuseSource = false>
inline void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                         LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(std::is_same_v<T, std::int16_t>, "ReduceXorSum: unsupported data type (int16_t)");
  sim::reduce_xor_sum<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                         const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(std::is_same_v<T, std::int16_t>, "ReduceXorSum: unsupported data type (int16_t)");
  sim::reduce_xor_sum<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, file, line);
}

// ---- the pattern reductions ----------------------------------------------------------------------
#define NPUKB_PATTERN_REDUCE(NAME, OP, TYPES_OK, TYPES_TEXT)                                                          \
  template <class T, class pattern, bool isReuseSource = false>                                                       \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                                   \
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t srcShape[], bool srcInnerPad) { NPUKB_CALLER;                                                                                 \
    static_assert(TYPES_OK, #NAME ": unsupported data type (" TYPES_TEXT ")");                                         \
    static_assert(sim::reduce_pattern_ok<pattern>,                                                                     \
                  #NAME ": pattern must be AscendC::Pattern::Reduce::AR or AscendC::Pattern::Reduce::RA");             \
    sim::pattern_reduce<T, pattern, isReuseSource>(#NAME, OP, dstTensor, srcTensor, &sharedTmpBuffer, srcShape,         \
                                                   srcInnerPad, file, line);                                           \
  }                                                                                                                    \
  template <class T, class pattern, bool isReuseSource = false>                                                       \
  inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const std::uint32_t srcShape[],   \
                   bool srcInnerPad) { NPUKB_CALLER;                                                               \
    static_assert(TYPES_OK, #NAME ": unsupported data type (" TYPES_TEXT ")");                                         \
    static_assert(sim::reduce_pattern_ok<pattern>,                                                                     \
                  #NAME ": pattern must be AscendC::Pattern::Reduce::AR or AscendC::Pattern::Reduce::RA");             \
    sim::pattern_reduce<T, pattern, isReuseSource>(#NAME, OP, dstTensor, srcTensor, nullptr, srcShape, srcInnerPad,     \
                                                   file, line);                                                        \
  }

NPUKB_PATTERN_REDUCE(ReduceSum, sim::PatOp::Sum, (std::is_same_v<T, float>), "float")
NPUKB_PATTERN_REDUCE(ReduceMean, sim::PatOp::Mean, (std::is_same_v<T, float>), "float")
NPUKB_PATTERN_REDUCE(ReduceMax, sim::PatOp::Max, (sim::one_of<T, half, float>), "half, float")
NPUKB_PATTERN_REDUCE(ReduceMin, sim::PatOp::Min, (sim::one_of<T, half, float>), "half, float")
NPUKB_PATTERN_REDUCE(ReduceAny, sim::PatOp::Any, (sim::one_of<T, std::uint8_t, float>), "uint8_t, float")
NPUKB_PATTERN_REDUCE(ReduceAll, sim::PatOp::All, (sim::one_of<T, std::uint8_t, float>), "uint8_t, float")
NPUKB_PATTERN_REDUCE(ReduceProd, sim::PatOp::Prod, (std::is_same_v<T, float>), "float")
#undef NPUKB_PATTERN_REDUCE

}  // namespace AscendC
