// npukb_sim/kernel/lib_softmax.h -- the SoftMax family of the library (SIMD-API/高阶API/激活函数/SoftMax接口
// and LogSoftMax) for Atlas A2 / A3, every documented overload: SoftMax, SimpleSoftMax, SoftmaxFlash,
// SoftmaxFlashV2 (with the ReduceMax-output form and the non-broadcast output mode), SoftmaxFlashV3,
// SoftmaxGrad, SoftmaxGradFront, AdjustSoftMaxRes, LogSoftMax and the kernel-side SoftmaxFlashV2 tiling.
//
// Rows: the source is [m, k] (m = the product of the leading dims, k = the last, a whole number of
// 32-byte blocks). The shape comes from the call's SoftMaxShapeInfo {srcM, srcK, oriSrcM, oriSrcK}, else
// from the config's constant oriSrcM / oriSrcK, else from the source's ShapeInfo (SetShapeInfo), else from
// the tiling's srcM / srcK. With oriSrcK < srcK the docs say the padding columns take part in part of the
// computation and their results overwrite them: the reductions (max, sum) cover the oriSrcK valid columns,
// the elementwise steps the whole row, so a padding column of SoftMax holds exp(pad - max) / sum. NZ data
// (isDataFormatNZ): the [m, k] matrix is stored as k / w0 column blocks of [m, w0] (w0 = 32 / sizeof(T));
// the row statistics stay [m, 32 bytes].
//
// Row statistics (max, sum, expMax, ...): each row's value repeated over one 32-byte block ([m, 32 /
// sizeof] elements), read from each row's first element; SoftmaxFlashV2's SOFTMAX_OUTPUT_WITHOUT_BRC
// mode keeps one element per row ([m, 1]). Computed in fp32 from snapshots of the inputs, so outputs may
// alias inputs (src and dst, FlashAttention's running max and sum), as the docs allow. The tiling splits
// the work on hardware and does not change the result; config.isCheckTiling = false with a tiling made
// for another shape, isBasicBlock on a shape that is not a basic block, a sharedTmpBuffer below the
// simulator's minimum (npukb_sim/lib_tmp_sizes.h, what the host helpers report) or overlapping an operand
// are violations. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/softmax_split.h"
#include "npukb_sim/kernel/lib_hl_common.h"

namespace AscendC {

// The shape of a softmax's source: built as `= {m, k, oriM, oriK}`, as `{}` (the API's default argument:
// the tiling's shape) and, as the reference's own examples do, with parentheses `(m, k, oriM, oriK)`.
struct SoftMaxShapeInfo {
  SoftMaxShapeInfo() = default;
  SoftMaxShapeInfo(std::uint32_t srcMIn, std::uint32_t srcKIn, std::uint32_t oriSrcMIn,
                   std::uint32_t oriSrcKIn)
      : srcM(srcMIn), srcK(srcKIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
  std::uint32_t srcM = 0;
  std::uint32_t srcK = 0;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
};

enum class SoftmaxMode {
  SOFTMAX_NORMAL = 0,
  SOFTMAX_OUTPUT_WITHOUT_BRC = 1,
};

struct SoftmaxConfig {
  bool isCheckTiling = true;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

// SoftmaxFlashV3's shape and PASA parameters.
struct SoftMaxParams {
  std::uint32_t srcM;
  std::uint32_t srcK;
  std::uint32_t oriSrcM;
  std::uint32_t oriSrcK;
  std::uint32_t loopCnt;
  std::uint32_t splitMeanCnt;
  float alpha;
};

namespace sim {

template <typename T>
constexpr bool softmax_types = one_of<T, half, float>;

// The rows a SoftMax-family call works on, and where element (r, c) lives.
struct SmRows {
  std::uint32_t m = 0;
  std::uint32_t k = 0;
  std::uint32_t valid_k = 0;
  bool nz = false;
  std::uint32_t w0 = 0;  // NZ: elements per fractal row (32 / sizeof(T))
  std::uint64_t at(std::uint32_t r, std::uint32_t c) const {
    if (!nz) return static_cast<std::uint64_t>(r) * k + c;
    return static_cast<std::uint64_t>(c / w0) * m * w0 + static_cast<std::uint64_t>(r) * w0 + c % w0;
  }
  std::uint64_t elems() const { return static_cast<std::uint64_t>(m) * k; }
};

inline bool softmax_basic_block(std::uint32_t m, std::uint32_t k, std::uint32_t type_size) {
  // The docs: 256 / sizeof(T) <= n < 2048, n % 64 == 0, m % 8 == 0 (n = 2048 is accepted: real tilings
  // treat it as basic).
  return k >= 256 / type_size && k <= 2048 && k % 64 == 0 && m % 8 == 0 && m > 0;
}

// Resolve the rows (see the header comment) and check the documented constraints on them.
template <typename T>
inline SmRows softmax_rows(const char* api, const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape,
                           const SoftmaxConfig& config, bool nz, bool basic_block, bool check_tiling, const char* file, int line) {
  SmRows r;
  const ShapeInfo info = src.GetShapeInfo();
  bool from_tiling = false;
  if (shape.srcM != 0 || shape.srcK != 0) {
    r.m = shape.srcM != 0 ? shape.srcM : tiling.srcM;
    r.k = shape.srcK != 0 ? shape.srcK : tiling.srcK;
    r.valid_k = shape.oriSrcK != 0 ? shape.oriSrcK : r.k;
  } else if (config.oriSrcK != 0) {
    const std::uint32_t blk = 32 / static_cast<std::uint32_t>(sizeof(T));
    r.m = config.oriSrcM != 0 ? config.oriSrcM : tiling.srcM;
    r.k = (config.oriSrcK + blk - 1) / blk * blk;
    r.valid_k = config.oriSrcK;
  } else if (info.shapeDim > 0) {
    r.m = 1;
    for (std::uint32_t i = 0; i + 1 < info.shapeDim; ++i) r.m *= info.shape[i];
    r.k = info.shape[info.shapeDim - 1];
    r.valid_k = info.originalShapeDim > 0 ? info.originalShape[info.originalShapeDim - 1] : r.k;
  } else {
    r.m = tiling.srcM;
    r.k = tiling.srcK;
    r.valid_k = r.k;
    from_tiling = true;
  }
  if (r.m == 0 || r.k == 0) {
    npukb::violation(api, "the shape is empty (srcM / srcK are 0 in the shape info, the config, the source's ShapeInfo and the tiling)",
                     file, line);
  }
  if (r.k * sizeof(T) % 32 != 0) {
    npukb::violation(api, "srcK " + npukb::kern::num(r.k) + " is not a whole number of 32-byte blocks", file, line);
  }
  if (r.valid_k > r.k) npukb::violation(api, "oriSrcK exceeds srcK", file, line);
  r.nz = nz;
  r.w0 = 32 / static_cast<std::uint32_t>(sizeof(T));
  if (nz && r.m % 16 != 0) {
    npukb::violation(api, "NZ data: srcM " + npukb::kern::num(r.m) + " is not a whole number of 16-row fractals", file, line);
  }
  if (check_tiling && !config.isCheckTiling && !from_tiling && (tiling.srcM != r.m || tiling.srcK != r.k)) {
    npukb::violation(api, "config.isCheckTiling is false, but the tiling was made for [" + npukb::kern::num(tiling.srcM) + ", " +
                     npukb::kern::num(tiling.srcK) + "], not this call's [" + npukb::kern::num(r.m) + ", " + npukb::kern::num(r.k) +
                     "] (with isCheckTiling the API would recompute it)", file, line);
  }
  if (basic_block && config.oriSrcK == 0 && !softmax_basic_block(r.m, r.k, sizeof(T))) {
    npukb::violation(api, "isBasicBlock is true but [" + npukb::kern::num(r.m) + ", " + npukb::kern::num(r.k) +
                     "] is not a basic block (256 / sizeof(T) <= srcK < 2048, srcK % 64 == 0, srcM % 8 == 0)", file, line);
  }
  return r;
}

// A row-statistics tensor ([m, 32 bytes] or [m, 1]).
template <typename S>
struct Stat {
  const LocalTensor<S>* t = nullptr;
  std::uint32_t stride = 0;
  float get(std::uint32_t r) const { return static_cast<float>(t->ptr()[static_cast<std::uint64_t>(r) * stride]); }
  void put(std::uint32_t r, float v) const {
    const S s = hl_out<S>(v);
    for (std::uint32_t j = 0; j < stride; ++j) t->ptr()[static_cast<std::uint64_t>(r) * stride + j] = s;
  }
  std::uint64_t bytes(std::uint32_t m) const { return static_cast<std::uint64_t>(m) * stride * sizeof(S); }
};
template <typename S>
inline Stat<S> stat(const char* api, const char* what, const LocalTensor<S>& t, std::uint32_t m, bool brc, const char* file, int line) {
  Stat<S> s{&t, brc ? 32u / static_cast<std::uint32_t>(sizeof(S)) : 1u};
  hl_operand(api, what, t, s.bytes(m), file, line);
  return s;
}
template <typename S>
inline std::vector<float> stat_snapshot(const Stat<S>& s, std::uint32_t m) {
  std::vector<float> v(m);
  for (std::uint32_t r = 0; r < m; ++r) v[r] = s.get(r);
  return v;
}

template <typename T>
inline std::vector<float> rows_snapshot(const LocalTensor<T>& t, const SmRows& rows) {
  std::vector<float> v(rows.elems());
  const T* p = t.ptr();
  for (std::uint32_t r = 0; r < rows.m; ++r)
    for (std::uint32_t c = 0; c < rows.k; ++c) v[static_cast<std::uint64_t>(r) * rows.k + c] = static_cast<float>(p[rows.at(r, c)]);
  return v;
}
template <typename T>
inline void rows_store(const LocalTensor<T>& t, const SmRows& rows, std::uint32_t r, const float* row) {
  T* p = t.ptr();
  for (std::uint32_t c = 0; c < rows.k; ++c) p[rows.at(r, c)] = hl_out<T>(row[c]);
}

inline void softmax_cost(const HlSeq& seq, const SmRows& rows, std::uint32_t type_size, const npukb::kern::Span* src, int nsrc,
                         const npukb::kern::Span* dst, int ndst) {
  hl_cost(seq, rows.elems(), type_size, type_size < 4, src, nsrc, dst, ndst);
}

// ---- SoftMax / LogSoftMax / SimpleSoftMax -----------------------------------------------------------
// kind 0: SoftMax (dst = e / sum), 1: LogSoftMax (dst = log10(e / sum), as documented), 2: SimpleSoftMax
// (max and sum are inputs).
template <typename T, typename S>
inline void softmax_run(const char* api, int kind, const LocalTensor<T>& dst, const LocalTensor<S>* sum, const LocalTensor<S>* mx,
                        const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp, const SoftMaxTiling& tiling,
                        const SoftMaxShapeInfo& shape, const SoftmaxConfig& config, bool nz, bool basic_block,
                        const char* file, int line) {
  const SmRows rows = softmax_rows(api, src, tiling, shape, config, nz, basic_block, true, file, line);
  const std::uint64_t bytes = rows.elems() * sizeof(T);
  hl_operand(api, "srcTensor", src, bytes, file, line);
  hl_operand(api, "dstTensor", dst, bytes, file, line);
  Stat<S> s_sum, s_max;
  if (sum) s_sum = stat(api, kind == 2 ? "inSumTensor" : "sumTensor", *sum, rows.m, true, file, line);
  if (mx) s_max = stat(api, kind == 2 ? "inMaxTensor" : "maxTensor", *mx, rows.m, true, file, line);
  if (tmp) {
    hl_tmp(api, *tmp, npukb_lib::SoftMaxMinTmpBytes(rows.k, sizeof(T)), npukb_lib::SoftMaxMaxTmpBytes(rows.m, rows.k, sizeof(T)),
           {ub_range(src, bytes, "srcTensor"), ub_range(dst, bytes, "dstTensor"),
            sum ? ub_range(*sum, s_sum.bytes(rows.m), "sumTensor") : UbRange{},
            mx ? ub_range(*mx, s_max.bytes(rows.m), "maxTensor") : UbRange{}}, file, line);
  }
  const std::vector<float> in = rows_snapshot(src, rows);
  const std::vector<float> in_max = kind == 2 ? stat_snapshot(s_max, rows.m) : std::vector<float>();
  const std::vector<float> in_sum = kind == 2 ? stat_snapshot(s_sum, rows.m) : std::vector<float>();
  std::vector<float> out(rows.k);
  for (std::uint32_t r = 0; r < rows.m; ++r) {
    const float* x = in.data() + static_cast<std::uint64_t>(r) * rows.k;
    float hi, total = 0.0f;
    if (kind == 2) {
      hi = in_max[r];
      total = in_sum[r];
    } else {
      hi = x[0];
      for (std::uint32_t c = 1; c < rows.valid_k; ++c) hi = x[c] > hi ? x[c] : hi;
      for (std::uint32_t c = 0; c < rows.valid_k; ++c) total += __builtin_expf(x[c] - hi);
    }
    for (std::uint32_t c = 0; c < rows.k; ++c) {
      const float p = __builtin_expf(x[c] - hi) / total;
      out[c] = kind == 1 ? __builtin_log10f(p) : p;
    }
    rows_store(dst, rows, r, out.data());
    if (kind != 2) {
      if (sum) s_sum.put(r, total);
      if (mx) s_max.put(r, hi);
    }
  }
  const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
  softmax_cost(kind == 2 ? HlSeq{2, 1, 1} : HlSeq{kind == 1 ? 8u : 7u, kind == 1 ? 2u : 1u, 1}, rows, sizeof(T), &sp, 1, &dp, 1);
}

// ---- SoftmaxFlash (deprecated) and SoftmaxFlashV2 ----------------------------------------------------
struct FlashOut {
  bool v1 = false;         // SoftmaxFlash: dst = e / sum, expMax = exp(inMax - max) * inSum / sum
  bool update = false;
  bool brc = true;         // SOFTMAX_NORMAL (32-byte blocks) or SOFTMAX_OUTPUT_WITHOUT_BRC ([m, 1])
};
template <typename T, typename S>
inline void softmax_flash_run(const char* api, const FlashOut& how, const LocalTensor<T>& dst, const LocalTensor<S>* reduce_max,
                              const LocalTensor<S>& sum, const LocalTensor<S>& mx, const LocalTensor<T>& src,
                              const LocalTensor<T>& exp_max, const LocalTensor<S>& in_sum, const LocalTensor<S>& in_max,
                              const LocalTensor<std::uint8_t>* tmp, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape,
                              const SoftmaxConfig& config, bool nz, bool basic_block, bool check_tiling, const char* file, int line) {
  const SmRows rows = softmax_rows(api, src, tiling, shape, config, nz, basic_block, check_tiling, file, line);
  const std::uint64_t bytes = rows.elems() * sizeof(T);
  hl_operand(api, "srcTensor", src, bytes, file, line);
  hl_operand(api, "dstTensor", dst, bytes, file, line);
  const Stat<S> s_sum = stat(api, "expSumTensor", sum, rows.m, how.brc, file, line);
  const Stat<S> s_max = stat(api, "maxTensor", mx, rows.m, how.brc, file, line);
  Stat<S> s_in_sum, s_in_max, s_rmax;
  Stat<T> s_exp;
  std::vector<float> old_max, old_sum;
  if (how.update) {
    s_in_sum = stat(api, "inExpSumTensor", in_sum, rows.m, how.brc, file, line);
    s_in_max = stat(api, "inMaxTensor", in_max, rows.m, how.brc, file, line);
    s_exp = stat(api, "expMaxTensor", exp_max, rows.m, how.brc, file, line);
    old_max = stat_snapshot(s_in_max, rows.m);
    old_sum = stat_snapshot(s_in_sum, rows.m);
    if (reduce_max) s_rmax = stat(api, "outReduceMax", *reduce_max, rows.m, false, file, line);
  }
  if (tmp) {
    const std::uint32_t min = how.v1 ? npukb_lib::SoftMaxFlashMinTmpBytes(rows.k, sizeof(T), how.update)
                                     : npukb_lib::SoftMaxFlashV2MinTmpBytes(rows.k, sizeof(T), how.update);
    hl_tmp(api, *tmp, min, rows.m * min,
           {ub_range(src, bytes, "srcTensor"), ub_range(dst, bytes, "dstTensor"), ub_range(sum, s_sum.bytes(rows.m), "expSumTensor"),
            ub_range(mx, s_max.bytes(rows.m), "maxTensor"),
            how.update ? ub_range(exp_max, s_exp.bytes(rows.m), "expMaxTensor") : UbRange{}}, file, line);
  }
  const std::vector<float> in = rows_snapshot(src, rows);
  std::vector<float> out(rows.k);
  for (std::uint32_t r = 0; r < rows.m; ++r) {
    const float* x = in.data() + static_cast<std::uint64_t>(r) * rows.k;
    float row_max = x[0];
    for (std::uint32_t c = 1; c < rows.valid_k; ++c) row_max = x[c] > row_max ? x[c] : row_max;
    const float hi = how.update && old_max[r] > row_max ? old_max[r] : row_max;
    float total = 0.0f;
    for (std::uint32_t c = 0; c < rows.k; ++c) {
      out[c] = __builtin_expf(x[c] - hi);
      if (c < rows.valid_k) total += out[c];
    }
    if (how.update) {
      const float scale = __builtin_expf(old_max[r] - hi);
      total += scale * old_sum[r];
      s_exp.put(r, how.v1 ? scale * old_sum[r] / total : scale);
      if (reduce_max) s_rmax.put(r, row_max);
    }
    if (how.v1) for (std::uint32_t c = 0; c < rows.k; ++c) out[c] /= total;
    rows_store(dst, rows, r, out.data());
    s_sum.put(r, total);
    s_max.put(r, hi);
  }
  const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
  softmax_cost(HlSeq{how.update ? 9u : 5u, how.update ? 2u : 1u, how.v1 ? 1u : 0u}, rows, sizeof(T), &sp, 1, &dp, 1);
}

template <typename T, typename S>
constexpr bool flash_stat_types = std::is_same_v<S, T> || (std::is_same_v<T, half> && std::is_same_v<S, float>);

// ---- SoftmaxGrad / SoftmaxGradFront ----------------------------------------------------------------
// s = sum over the valid columns of grad * src; front: dst = s over one 32-byte block per row; else
// dst = (grad - s) * src over the whole row.
template <typename T>
inline void softmax_grad_run(const char* api, bool front, const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                             const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& shape, bool nz, bool basic_block, const char* file, int line) {
  const SmRows rows = softmax_rows(api, src, tiling, shape, SOFTMAX_DEFAULT_CFG, nz, basic_block, false, file, line);
  const std::uint64_t bytes = rows.elems() * sizeof(T);
  hl_operand(api, "srcTensor", src, bytes, file, line);
  hl_operand(api, "gradTensor", grad, bytes, file, line);
  const Stat<T> s_front{&dst, 32u / static_cast<std::uint32_t>(sizeof(T))};
  const std::uint64_t dbytes = front ? s_front.bytes(rows.m) : bytes;
  hl_operand(api, "dstTensor", dst, dbytes, file, line);
  if (tmp) {
    const std::uint32_t min = npukb_lib::SoftMaxGradMinTmpBytes(rows.k, sizeof(T), front);
    hl_tmp(api, *tmp, min, rows.m * min,
           {ub_range(src, bytes, "srcTensor"), ub_range(grad, bytes, "gradTensor"), ub_range(dst, dbytes, "dstTensor")}, file, line);
  }
  const std::vector<float> y = rows_snapshot(src, rows), g = rows_snapshot(grad, rows);
  std::vector<float> out(rows.k);
  for (std::uint32_t r = 0; r < rows.m; ++r) {
    const float* yr = y.data() + static_cast<std::uint64_t>(r) * rows.k;
    const float* gr = g.data() + static_cast<std::uint64_t>(r) * rows.k;
    float s = 0.0f;
    for (std::uint32_t c = 0; c < rows.valid_k; ++c) s += gr[c] * yr[c];
    if (front) {
      s_front.put(r, s);
    } else {
      for (std::uint32_t c = 0; c < rows.k; ++c) out[c] = (gr[c] - s) * yr[c];
      rows_store(dst, rows, r, out.data());
    }
  }
  const npukb::kern::Span sp[2] = {vspan(src, bytes), vspan(grad, bytes)};
  const npukb::kern::Span dp = vspan(dst, dbytes);
  softmax_cost(front ? HlSeq{3, 0, 0} : HlSeq{6, 0, 0}, rows, sizeof(T), sp, 2, &dp, 1);
}

// ---- SoftmaxFlashV3 (PASA) ----------------------------------------------------------------------
// Each row is shifted by (rowMean - localMean_j) * alpha / (1 - alpha), where localMean_j is the mean of
// the columns in block j of every 64-element repeat ((c % 64) / 8 == j, splitMeanCnt = 8 groups of k / 8);
// then the FlashV2 update with the shifts of the current and the running means.
template <typename T, typename U>
inline void softmax_flash_v3_run(bool update, const LocalTensor<T>& dst, const LocalTensor<U>& mean, const LocalTensor<U>& sum,
                                 const LocalTensor<U>& mx, const LocalTensor<T>& src, const LocalTensor<T>& exp_max,
                                 const LocalTensor<U>& in_mean, const LocalTensor<U>& in_sum, const LocalTensor<U>& in_max,
                                 const LocalTensor<std::uint8_t>* tmp, const SoftMaxParams& params, const char* file, int line) {
  const char* api = "SoftmaxFlashV3";
  const std::uint32_t m = params.srcM, k = params.srcK;
  if (params.oriSrcM != m || params.oriSrcK != k) {
    npukb::violation(api, "params.oriSrcM / oriSrcK differ from srcM / srcK: SoftmaxFlashV3 does not support padded shapes", file, line);
  }
  if (k < 512 || k % 64 != 0 || m % 8 != 0 || m == 0) {
    npukb::violation(api, "the source [" + npukb::kern::num(m) + ", " + npukb::kern::num(k) +
                     "] must have srcK >= 512, srcK % 64 == 0 and srcM % 8 == 0", file, line);
  }
  if (params.splitMeanCnt != 8) {
    npukb::violation(api, "params.splitMeanCnt is " + npukb::kern::num(params.splitMeanCnt) + "; only 8 is supported", file, line);
  }
  if (update && params.loopCnt < 1) npukb::violation(api, "params.loopCnt must be at least 1 with isUpdate", file, line);
  SmRows rows;
  rows.m = m;
  rows.k = k;
  rows.valid_k = k;
  const std::uint64_t bytes = rows.elems() * sizeof(T);
  hl_operand(api, "srcTensor", src, bytes, file, line);
  hl_operand(api, "dstTensor", dst, bytes, file, line);
  const Stat<U> s_mean = stat(api, "meanTensor", mean, m, true, file, line);
  const Stat<U> s_sum = stat(api, "expSumTensor", sum, m, true, file, line);
  const Stat<U> s_max = stat(api, "maxTensor", mx, m, true, file, line);
  Stat<U> s_in_mean, s_in_sum, s_in_max;
  Stat<T> s_exp;
  std::vector<float> old_mean, old_sum, old_max;
  if (update) {
    s_in_mean = stat(api, "inMeanTensor", in_mean, m, true, file, line);
    s_in_sum = stat(api, "inExpSumTensor", in_sum, m, true, file, line);
    s_in_max = stat(api, "inMaxTensor", in_max, m, true, file, line);
    s_exp = stat(api, "expMaxTensor", exp_max, m, true, file, line);
    old_mean = stat_snapshot(s_in_mean, m);
    old_sum = stat_snapshot(s_in_sum, m);
    old_max = stat_snapshot(s_in_max, m);
  }
  if (tmp) {
    const std::uint32_t min = npukb_lib::SoftMaxFlashV3MinTmpBytes(k, update);
    hl_tmp(api, *tmp, min, m * min,
           {ub_range(src, bytes, "srcTensor"), ub_range(dst, bytes, "dstTensor"), ub_range(mean, s_mean.bytes(m), "meanTensor"),
            ub_range(sum, s_sum.bytes(m), "expSumTensor"), ub_range(mx, s_max.bytes(m), "maxTensor")}, file, line);
  }
  const float scalar = params.alpha / (1.0f - params.alpha);
  const float base_k = static_cast<float>(k / 8);
  const std::vector<float> in = rows_snapshot(src, rows);
  std::vector<float> x(k);
  for (std::uint32_t r = 0; r < m; ++r) {
    const float* row = in.data() + static_cast<std::uint64_t>(r) * k;
    float group[8] = {};
    float total = 0.0f;
    for (std::uint32_t c = 0; c < k; ++c) {
      group[(c % 64) / 8] += row[c];
      total += row[c];
    }
    const float row_mean = total / static_cast<float>(k);
    float row_max = 0.0f;
    for (std::uint32_t c = 0; c < k; ++c) {
      x[c] = row[c] - (row_mean - group[(c % 64) / 8] / base_k) * scalar;
      row_max = c == 0 || x[c] > row_max ? x[c] : row_max;
    }
    const float new_mean = update ? (row_mean + old_mean[r] * static_cast<float>(params.loopCnt - 1)) /
                                        static_cast<float>(params.loopCnt) : row_mean;
    const float shift_curr = (row_mean - new_mean) * scalar;
    float new_max = shift_curr + row_max, shift_prev = 0.0f;
    if (update) {
      shift_prev = (old_mean[r] - new_mean) * scalar;
      const float prev = shift_prev + old_max[r];
      new_max = prev > new_max ? prev : new_max;
    }
    const float sub = new_max - shift_curr;
    float s = 0.0f;
    for (std::uint32_t c = 0; c < k; ++c) {
      x[c] = __builtin_expf(x[c] - sub);
      s += x[c];
    }
    if (update) {
      const float e = __builtin_expf(old_max[r] - new_max + shift_prev);
      s += e * old_sum[r];
      s_exp.put(r, e);
    }
    rows_store(dst, rows, r, x.data());
    s_mean.put(r, new_mean);
    s_sum.put(r, s);
    s_max.put(r, new_max);
  }
  const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
  softmax_cost(HlSeq{update ? 16u : 12u, 1, 1}, rows, sizeof(T), &sp, 1, &dp, 1);
}

}  // namespace sim

// ---- SoftMax ------------------------------------------------------------------------------------------
#define NPUKB_SOFTMAX_TEMPLATE                                                                                   \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,      \
            const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define NPUKB_SOFTMAX_TEMPLATE_ND \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>

NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  sim::softmax_run("SoftMax", 0, dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                   isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                    const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  sim::softmax_run("SoftMax", 0, dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                   isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE_ND
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  sim::softmax_run<T, T>("SoftMax", 0, dstTensor, nullptr, nullptr, srcTensor, nullptr, tiling, softmaxShapeInfo, config, false,
                         isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  sim::softmax_run("SoftMax", 0, dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, config,
                   isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                    const LocalTensor<half>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  sim::softmax_run("SoftMax", 0, dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, config,
                   isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE_ND
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  sim::softmax_run<T, T>("SoftMax", 0, dstTensor, nullptr, nullptr, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, config,
                         false, isBasicBlock, file, line);
}

// ---- SimpleSoftMax ------------------------------------------------------------------------------------
NPUKB_SOFTMAX_TEMPLATE
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                          const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SimpleSoftMax: unsupported data type (half, float)");
  sim::softmax_run("SimpleSoftMax", 2, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                   isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                          const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  sim::softmax_run("SimpleSoftMax", 2, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, config,
                   isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                          const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                          const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SimpleSoftMax: unsupported data type (half, float)");
  sim::softmax_run("SimpleSoftMax", 2, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                   config, isDataFormatNZ, isBasicBlock, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SimpleSoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& inSumTensor,
                          const LocalTensor<float>& inMaxTensor, const LocalTensor<half>& srcTensor,
                          const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  sim::softmax_run("SimpleSoftMax", 2, dstTensor, &inSumTensor, &inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                   config, isDataFormatNZ, isBasicBlock, file, line);
}
#undef NPUKB_SOFTMAX_TEMPLATE_ND

// ---- LogSoftMax ---------------------------------------------------------------------------------------
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max, const LocalTensor<T>& src,
                       const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                       const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "LogSoftMax: unsupported data type (half, float)");
  SoftMaxTiling rows{};
  std::memcpy(&rows, &tiling, sizeof(rows) < sizeof(tiling) ? sizeof(rows) : sizeof(tiling));
  sim::softmax_run("LogSoftMax", 1, dst, &sum, &max, src, &sharedTmpBuffer, rows, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG,
                   isDataFormatNZ, false, file, line);
}

// ---- SoftmaxFlash (deprecated by the docs in favour of SoftmaxFlashV2) -------------------------------
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                         const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                         const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxFlash: unsupported data type (half, float)");
  sim::softmax_flash_run("SoftmaxFlash", sim::FlashOut{true, isUpdate, true}, dstTensor, static_cast<const LocalTensor<T>*>(nullptr),
                         sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo,
                         SOFTMAX_DEFAULT_CFG, false, isBasicBlock, true, file, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                         const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
                         const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                         bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  sim::softmax_flash_run("SoftmaxFlash", sim::FlashOut{true, isUpdate, true}, dstTensor,
                         static_cast<const LocalTensor<float>*>(nullptr), sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,
                         inMaxTensor, nullptr, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, false, isBasicBlock, true, file, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                         const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                         const LocalTensor<T>& inMaxTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                         const SoftMaxTiling& tiling, bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxFlash: unsupported data type (half, float)");
  sim::softmax_flash_run("SoftmaxFlash", sim::FlashOut{true, isUpdate, true}, dstTensor, static_cast<const LocalTensor<T>*>(nullptr),
                         sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor, &sharedTmpBuffer, tiling,
                         softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, false, isBasicBlock, true, file, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                         const LocalTensor<half>& srcTensor, const LocalTensor<half>& expMaxTensor,
                         const LocalTensor<float>& inSumTensor, const LocalTensor<float>& inMaxTensor,
                         const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isUpdate = false,
                         const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  sim::softmax_flash_run("SoftmaxFlash", sim::FlashOut{true, isUpdate, true}, dstTensor,
                         static_cast<const LocalTensor<float>*>(nullptr), sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor,
                         inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, SOFTMAX_DEFAULT_CFG, false, isBasicBlock, true,
                         file, line);
}

// ---- SoftmaxFlashV2 -------------------------------------------------------------------------------------
// The kernel-side tiling for a shape known only at run time, in two spellings: the documented
// SoftMaxFlashV2TilingFunc (localWorkSpaceSize in bytes, as the host's) and SoftMaxFlashV2TilingFuncImpl
// (srcM, srcK, ..., workLocalSize in fp32 elements), which real kernels call; the same fields as the
// host's SoftMaxFlashV2TilingFunc.
inline SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const std::uint32_t srcM, const std::uint32_t srcK,
                                                  const std::uint32_t dataTypeSize1, const std::uint32_t dataTypeSize2,
                                                  const std::uint32_t workLocalSize, const bool isUpdate = false,
                                                  const bool isBasicBlock = false, const bool isDataFormatNZ = false,
                                                  const bool isFlashOutputBrc = false) {
  (void)isBasicBlock;
  (void)isDataFormatNZ;
  SoftMaxTiling tiling{};
  ::npukb_softmax::PlainSoftMaxTiling adapter{tiling};
  ::npukb_softmax::FillRows(srcM, srcK, isFlashOutputBrc ? 1u : dataTypeSize2,
                            npukb_lib::SoftMaxFlashV2MinTmpBytes(srcK, dataTypeSize1, isUpdate),
                            workLocalSize * npukb_lib::kFloatBytes, adapter);
  if (isFlashOutputBrc) {
    tiling.outMaxK = 1;
    tiling.outMaxSize = srcM;
  }
  return tiling;
}
inline SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const std::uint32_t dataTypeSize1,
                                              const std::uint32_t dataTypeSize2, const std::uint32_t localWorkSpaceSize,
                                              const bool isUpdate = false, const bool isBasicBlock = false,
                                              const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
  return SoftMaxFlashV2TilingFuncImpl(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2,
                                      localWorkSpaceSize / npukb_lib::kFloatBytes, isUpdate, isBasicBlock, isDataFormatNZ,
                                      isFlashOutputBrc);
}

// S, the max / sum element type, is deduced: T itself, or float for a half source.
#define NPUKB_FLASHV2_TEMPLATE                                                                                    \
  template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,             \
            bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename S = T>
#define NPUKB_FLASHV2_TYPES                                                                                            \
  static_assert(sim::softmax_types<T>, "SoftmaxFlashV2: unsupported data type (half, float)");                          \
  static_assert(sim::flash_stat_types<T, S>,                                                                         \
                "SoftmaxFlashV2: the sum / max tensors are of the source's type, or float for a half source")
NPUKB_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<S>& expSumTensor, const LocalTensor<S>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<S>& inExpSumTensor,
                           const LocalTensor<S>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  NPUKB_FLASHV2_TYPES;
  sim::softmax_flash_run("SoftmaxFlashV2", sim::FlashOut{false, isUpdate, config.mode == SoftmaxMode::SOFTMAX_NORMAL}, dstTensor,
                         static_cast<const LocalTensor<S>*>(nullptr), expSumTensor, maxTensor, srcTensor, expMaxTensor,
                         inExpSumTensor, inMaxTensor, nullptr, tiling, softmaxShapeInfo, config, isDataFormatNZ, isBasicBlock, true,
                         file, line);
}
NPUKB_FLASHV2_TEMPLATE
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<S>& expSumTensor, const LocalTensor<S>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<S>& inExpSumTensor,
                           const LocalTensor<S>& inMaxTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  NPUKB_FLASHV2_TYPES;
  sim::softmax_flash_run("SoftmaxFlashV2", sim::FlashOut{false, isUpdate, config.mode == SoftmaxMode::SOFTMAX_NORMAL}, dstTensor,
                         static_cast<const LocalTensor<S>*>(nullptr), expSumTensor, maxTensor, srcTensor, expMaxTensor,
                         inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, config, isDataFormatNZ,
                         isBasicBlock, true, file, line);
}
// With the first reduce-max of each row (outReduceMax, [m, 1], only with isUpdate): the docs support it
// only in the SOFTMAX_OUTPUT_WITHOUT_BRC mode; in SOFTMAX_NORMAL the call does nothing.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,
                           const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                           const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxFlashV2: unsupported data type (half, float)");
  if (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) return;
  sim::softmax_flash_run("SoftmaxFlashV2", sim::FlashOut{false, isUpdate, false}, dstTensor, &outReduceMax, outExpSum, outMax,
                         srcTensor, outExpMax, inExpSum, inMax, nullptr, tiling, softmaxShapeInfo, config, false, isBasicBlock,
                         false, file, line);
}
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& expSumTensor,
                           const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
                           const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxFlashV2: unsupported data type (half, float)");
  if (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) return;
  sim::softmax_flash_run("SoftmaxFlashV2", sim::FlashOut{false, isUpdate, false}, dstTensor, &outReduceMax, expSumTensor, maxTensor,
                         srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, config,
                         false, isBasicBlock, false, file, line);
}
#undef NPUKB_FLASHV2_TYPES
#undef NPUKB_FLASHV2_TEMPLATE
#undef NPUKB_SOFTMAX_TEMPLATE

// ---- SoftmaxFlashV3 -------------------------------------------------------------------------------------
#define NPUKB_FLASHV3_TEMPLATE                                                                                     \
  template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,  \
            bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
#define NPUKB_FLASHV3_TYPES                                                                                              \
  static_assert(std::is_same_v<T, half>, "SoftmaxFlashV3: T (source, dst, expMax) must be half");                      \
  static_assert(std::is_same_v<U, float>, "SoftmaxFlashV3: U (mean, sum, max) must be float")
NPUKB_FLASHV3_TEMPLATE
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor, const LocalTensor<U>& expSumTensor,
                           const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor, const LocalTensor<U>& inMaxTensor,
                           const SoftMaxTiling& tiling, const SoftMaxParams& params) { NPUKB_CALLER;
  NPUKB_FLASHV3_TYPES;
  (void)tiling;
  sim::softmax_flash_v3_run(isUpdate, dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
                            inExpSumTensor, inMaxTensor, nullptr, params, file, line);
}
NPUKB_FLASHV3_TEMPLATE
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor, const LocalTensor<U>& expSumTensor,
                           const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor, const LocalTensor<U>& inMaxTensor,
                           const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, const SoftMaxParams& params) { NPUKB_CALLER;
  NPUKB_FLASHV3_TYPES;
  (void)tiling;
  sim::softmax_flash_v3_run(isUpdate, dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
                            inExpSumTensor, inMaxTensor, &sharedTmpBuffer, params, file, line);
}
#undef NPUKB_FLASHV3_TYPES
#undef NPUKB_FLASHV3_TEMPLATE

// ---- SoftmaxGrad / SoftmaxGradFront -------------------------------------------------------------------
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                        const SoftMaxTiling& tiling, bool isFront = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxGrad: unsupported data type (half, float)");
  sim::softmax_grad_run("SoftmaxGrad", isFront, dstTensor, gradTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, isDataFormatNZ,
                        false, file, line);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxGrad: unsupported data type (half, float)");
  sim::softmax_grad_run("SoftmaxGrad", isFront, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                        isDataFormatNZ, false, file, line);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxGradFront: unsupported data type (half, float)");
  sim::softmax_grad_run("SoftmaxGradFront", true, dstTensor, gradTensor, srcTensor, nullptr, tiling, softmaxShapeInfo,
                        isDataFormatNZ, isBasicBlock, file, line);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                             const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxGradFront: unsupported data type (half, float)");
  sim::softmax_grad_run("SoftmaxGradFront", true, dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo,
                        isDataFormatNZ, isBasicBlock, file, line);
}

// ---- AdjustSoftMaxRes -------------------------------------------------------------------------------
// Rows whose max equals `from` (the max element's bit pattern: a float's 32 bits, a half's 16) are set to
// `to` over the whole row (srcK columns). stepSizeMode 0: each row's max is the first element of its
// 32-byte block; otherwise one element per row. Returns whether any row matched.
template <typename T1, typename T2, bool isDataFormatNZ = false, std::uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const std::uint32_t from,
                             const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T1>, "AdjustSoftMaxRes: unsupported softMaxRes data type (half, float)");
  static_assert(sim::softmax_types<T2>, "AdjustSoftMaxRes: unsupported maxTensor data type (half, float)");
  static_assert(!isDataFormatNZ, "AdjustSoftMaxRes: the docs support ND data only");
  const char* api = "AdjustSoftMaxRes";
  const std::uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
  if (m == 0 || k == 0) npukb::violation(api, "softmaxShapeInfo.srcM / srcK are 0", file, line);
  if (k * sizeof(T1) % 32 != 0) {
    npukb::violation(api, "srcK " + npukb::kern::num(k) + " is not a whole number of 32-byte blocks", file, line);
  }
  const std::uint32_t step = stepSizeMode == 0 ? 32u / static_cast<std::uint32_t>(sizeof(T2)) : 1u;
  sim::hl_operand(api, "softMaxRes", softMaxRes, static_cast<std::uint64_t>(m) * k * sizeof(T1), file, line);
  sim::hl_operand(api, "maxTensor", maxTensor, static_cast<std::uint64_t>(m) * step * sizeof(T2), file, line);
  bool any = false;
  T1* res = softMaxRes.ptr();
  for (std::uint32_t r = 0; r < m; ++r) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, maxTensor.ptr() + static_cast<std::uint64_t>(r) * step, sizeof(T2));
    if (bits != from) continue;
    any = true;
    for (std::uint32_t c = 0; c < k; ++c) res[static_cast<std::uint64_t>(r) * k + c] = to;
  }
  const npukb::kern::Span sp = sim::vspan(maxTensor, static_cast<std::uint64_t>(m) * step * sizeof(T2));
  const npukb::kern::Span dp = sim::vspan(softMaxRes, static_cast<std::uint64_t>(m) * k * sizeof(T1));
  sim::hl_cost(sim::HlSeq{3, 0, 0}, static_cast<std::uint64_t>(m) * k, sizeof(T1), false, &sp, 1, &dp, 1);
  return any;
}

}  // namespace AscendC
