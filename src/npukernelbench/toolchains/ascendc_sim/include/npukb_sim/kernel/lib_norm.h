// npukb_sim/kernel/lib_norm.h -- RmsNorm, BatchNorm, DeepNorm, Normalize and GroupNorm for the Atlas
// A2 / A3 training series. Clean-room part of ascendc-sim, written from the API pages' formulas and
// constraints.
//
// RmsNorm [B, S, H]: y = x * gamma / sqrt(sum(x^2 / H') + eps). BatchNorm [B, S*H]: per feature
// column, over the tiling's originalBLength valid rows, mean and variance ([S, H] outputs), and
// y[b] = gamma[b] * (x[b] - mean) / sqrt(variance + eps) + beta[b] (gamma and beta are [B], as the page
// states and its example shows). DeepNorm: LayerNorm [B, S, H] of alpha * x + gx, with the mean and the
// variance as outputs (the page's rstdLocal holds the variance: its parameter table and example say
// so). Normalize [A, R]: rstd = 1 / sqrt(variance + eps) from the given mean and variance,
// y = (x - mean) * rstd * gamma + beta. GroupNorm [N, C, H*W]: mean and variance per group of C / G
// channels ([N, G] outputs), y = gamma[c] * (x - mean) / sqrt(variance + eps) + beta[c].
// Statistics run over the valid columns only (H' = the original H); padding columns of y get the
// formula applied to the padded input. Every API computes in fp32 from a snapshot of its inputs with
// the vector reductions' binary sums and rounds each output once.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/kernel/lib_norm_rows.h"
#include "npukb_sim/norm_tmp_sizes.h"
#include "npukb_sim/reduce_pattern.h"

namespace AscendC {

struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  std::int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};

struct NormalizePara {
  std::uint32_t aLength = 0;
  std::uint32_t rLength = 0;
  std::uint32_t rLengthWithPadding = 0;
};

namespace sim {

inline void tmp_or_framework(const char* api, const LocalTensor<std::uint8_t>* tmp, std::uint64_t need, std::uint64_t planned,
                             const char* min_fn, const char* tiling_fn, const char* file, int line) {
  const std::string why_min = std::string("the API needs for this shape (") + min_fn + "'s minimum)";
  const std::string why_plan = std::string("the tiling was planned for (the work-buffer size given to ") + tiling_fn + ")";
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, why_min.c_str(), file, line);
    if (planned != 0) check_tmp_buffer(api, *tmp, planned, why_plan.c_str(), file, line);
  } else {
    check_framework_tmp(api, need > planned ? need : planned, min_fn, file, line);
  }
}

// ---- RmsNorm ------------------------------------------------------------------------------------
template <typename T, bool kBasicBlock>
inline void rmsnorm_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& gamma,
                        const LocalTensor<std::uint8_t>* tmp, T epsilon, const RmsNormTiling& tiling, const char* file,
                        int line) {
  const char* api = "RmsNorm";
  const BshShape sh = bsh_from_tiling<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                         "GetRmsNormTilingInfo", file, line);
  if (kBasicBlock && !(sh.h % 64 == 0 && sh.h < 2048 && sh.rows() % 8 == 0)) {
    npukb::violation(api, "isBasicBlock needs H a multiple of 64 below 2048 and B * S a multiple of 8 (H " +
                     npukb::kern::num(sh.h) + ", B * S " + npukb::kern::num(sh.rows()) + ")", file, line);
  }
  const std::uint64_t xb = sh.elems() * sizeof(T), hb = static_cast<std::uint64_t>(sh.h) * sizeof(T);
  check_local(api, "srcLocal", src, xb, true, file, line);
  check_local(api, "dstLocal", dst, xb, true, file, line);
  check_local(api, "gammaLocal", gamma, hb, true, file, line);
  check_no_overlap(api, "dstLocal", dst, xb, "gammaLocal", gamma, hb, file, line);
  const std::uint32_t row_bytes = npukb_lib::RmsNormRowBytes(sh.h, sizeof(T));
  tmp_or_framework(api, tmp, row_bytes, static_cast<std::uint64_t>(tiling.mainBsLength) * row_bytes,
                      "GetRmsNormMaxMinTmpSize", "GetRmsNormTilingInfo", file, line);
  const std::vector<float> x = fp32_copy(src, sh.elems()), g = fp32_copy(gamma, sh.h);
  const float rec = 1.0f / static_cast<float>(sh.valid), eps = static_cast<float>(epsilon);
  std::vector<float> sq(sh.valid);
  for (std::uint32_t r = 0; r < sh.rows(); ++r) {
    const float* row = x.data() + static_cast<std::uint64_t>(r) * sh.h;
    for (std::uint32_t j = 0; j < sh.valid; ++j) sq[j] = row[j] * row[j] * rec;
    const float rstd = 1.0f / __builtin_sqrtf(tree_sum(sq.data(), sh.valid) + eps);
    T* out = dst.ptr() + static_cast<std::uint64_t>(r) * sh.h;
    for (std::uint32_t j = 0; j < sh.h; ++j) out[j] = static_cast<T>(row[j] * rstd * g[j]);
  }
  const npukb::kern::Span sp[2] = {vspan(src, xb), vspan(gamma, hb)};
  const npukb::kern::Span dp = vspan(dst, xb);
  lib_cost(passes_of(sh.rows(), tiling.mainBsLength), 8, 5 * kLibSimple + kLibReduce + kLibTrans, sh.elems(), sp, 2, &dp, 1);
}

// ---- BatchNorm ----------------------------------------------------------------------------------
template <typename T, bool kBasicBlock>
inline void batchnorm_run(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                          const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamm,
                          const LocalTensor<T>& beta, const LocalTensor<std::uint8_t>* tmp, T epsilon,
                          const BatchNormTiling& tiling, const char* file, int line) {
  const char* api = "BatchNorm";
  const std::uint32_t b = tiling.originalBLength, sh = tiling.meanVarSize;
  if (b == 0 || sh == 0) {
    npukb::violation(api, "the tiling has no shape (originalBLength " + npukb::kern::num(b) + ", meanVarSize " +
                     npukb::kern::num(sh) + "): fill it with GetBatchNormNDTilingInfo on the host", file, line);
  }
  if (static_cast<std::uint64_t>(sh) * sizeof(T) % 32 != 0) {
    npukb::violation(api, "S * H = " + npukb::kern::num(sh) + " is not 32-byte aligned", file, line);
  }
  if (kBasicBlock && !(b % 8 == 0 && sh % 64 == 0 && sh < 2048)) {
    npukb::violation(api, "isBasicBlock needs originB a multiple of 8 and S * H a multiple of 64 below 2048 (originB " +
                     npukb::kern::num(b) + ", S * H " + npukb::kern::num(sh) + ")", file, line);
  }
  const std::uint64_t elems = static_cast<std::uint64_t>(b) * sh;
  const std::uint64_t xb = elems * sizeof(T), mb = static_cast<std::uint64_t>(sh) * sizeof(T),
                      gb = npukb_lib::AlignUp(static_cast<std::uint32_t>(b * sizeof(T)), 32);
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "output", output, xb, true, file, line);
  check_local(api, "gamm", gamm, gb, true, file, line);
  check_local(api, "beta", beta, gb, true, file, line);
  check_local(api, "outputMean", outputMean, mb, true, file, line);
  check_local(api, "outputVariance", outputVariance, mb, true, file, line);
  const std::uint32_t min_cols = npukb_lib::BatchNormMinColumns(sh, sizeof(T));
  tmp_or_framework(api, tmp, static_cast<std::uint64_t>(npukb_lib::BatchNormColumnBytes(b)) * min_cols,
                      static_cast<std::uint64_t>(tiling.tmpBufSize) * 4, "GetBatchNormMaxMinTmpSize",
                      "GetBatchNormNDTilingInfo", file, line);
  const std::vector<float> x = fp32_copy(inputX, elems), g = fp32_copy(gamm, b), bt = fp32_copy(beta, b);
  const float rec = 1.0f / static_cast<float>(b), eps = static_cast<float>(epsilon);
  std::vector<float> col(b);
  for (std::uint32_t f = 0; f < sh; ++f) {
    for (std::uint32_t i = 0; i < b; ++i) col[i] = x[static_cast<std::uint64_t>(i) * sh + f];
    float mean = 0.0f, var = 0.0f;
    row_mean_var(col.data(), b, rec, mean, var);
    const float rstd = 1.0f / __builtin_sqrtf(var + eps);
    for (std::uint32_t i = 0; i < b; ++i) {
      output.ptr()[static_cast<std::uint64_t>(i) * sh + f] = static_cast<T>(g[i] * ((col[i] - mean) * rstd) + bt[i]);
    }
    outputMean.ptr()[f] = static_cast<T>(mean);
    outputVariance.ptr()[f] = static_cast<T>(var);
  }
  const npukb::kern::Span sp = vspan(inputX, xb);
  const npukb::kern::Span dp[3] = {vspan(output, xb), vspan(outputMean, mb), vspan(outputVariance, mb)};
  lib_cost(passes_of(sh, tiling.shCurLength), 12, 9 * kLibSimple + 2 * kLibReduce + kLibTrans, elems, &sp, 1, dp, 3);
}

// ---- DeepNorm -----------------------------------------------------------------------------------
template <typename T, bool kReuseSrc, bool kBasicBlock>
inline void deepnorm_run(const LocalTensor<T>& dst, const LocalTensor<T>& mean_out, const LocalTensor<T>& var_out,
                         const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta,
                         const LocalTensor<T>& gamma, const LocalTensor<std::uint8_t>* tmp, T alpha, T epsilon,
                         const DeepNormTiling& tiling, const char* file, int line) {
  const char* api = "DeepNorm";
  const BshShape sh = bsh_from_tiling<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                         "GetDeepNormTilingInfo", file, line);
  if (sh.h > 2040) npukb::violation(api, "H = " + npukb::kern::num(sh.h) + " exceeds 2040", file, line);
  if (kBasicBlock && !(sh.h % 64 == 0 && sh.rows() % 8 == 0 && sh.valid == sh.h)) {
    npukb::violation(api, "isBasicBlock needs H a multiple of 64 (unpadded) and B * S a multiple of 8 (H " +
                     npukb::kern::num(sh.h) + ", B * S " + npukb::kern::num(sh.rows()) + ")", file, line);
  }
  const std::uint64_t xb = sh.elems() * sizeof(T), hb = static_cast<std::uint64_t>(sh.h) * sizeof(T),
                      mb = static_cast<std::uint64_t>(sh.rows()) * sizeof(T);
  check_local(api, "srcLocal", src, xb, true, file, line);
  check_local(api, "gxLocal", gx, xb, true, file, line);
  check_local(api, "dstLocal", dst, xb, true, file, line);
  check_local(api, "betaLocal", beta, hb, true, file, line);
  check_local(api, "gammaLocal", gamma, hb, true, file, line);
  check_local(api, "meanLocal", mean_out, mb, true, file, line);
  check_local(api, "rstdLocal", var_out, mb, true, file, line);
  if (!kReuseSrc) check_no_overlap(api, "dstLocal", dst, xb, "srcLocal (isReuseSrc is false)", src, xb, file, line);
  const std::uint32_t row_bytes = npukb_lib::LayerNormRowBytes(sh.h, sizeof(T), kReuseSrc);
  tmp_or_framework(api, tmp, row_bytes, static_cast<std::uint64_t>(tiling.tmpBufSize) * 4, "GetDeepNormMaxMinTmpSize",
                      "GetDeepNormTilingInfo", file, line);
  std::vector<float> x = fp32_copy(src, sh.elems());
  const std::vector<float> gxv = fp32_copy(gx, sh.elems()), g = fp32_copy(gamma, sh.h), b = fp32_copy(beta, sh.h);
  const float a = static_cast<float>(alpha), eps = static_cast<float>(epsilon), rec = 1.0f / static_cast<float>(sh.valid);
  for (std::uint64_t i = 0; i < sh.elems(); ++i) x[i] = a * x[i] + gxv[i];
  for (std::uint32_t r = 0; r < sh.rows(); ++r) {
    const float* row = x.data() + static_cast<std::uint64_t>(r) * sh.h;
    float mean = 0.0f, var = 0.0f;
    row_mean_var(row, sh.valid, rec, mean, var);
    const float rstd = 1.0f / __builtin_sqrtf(var + eps);
    T* out = dst.ptr() + static_cast<std::uint64_t>(r) * sh.h;
    for (std::uint32_t j = 0; j < sh.h; ++j) out[j] = static_cast<T>((row[j] - mean) * rstd * g[j] + b[j]);
    mean_out.ptr()[r] = static_cast<T>(mean);
    var_out.ptr()[r] = static_cast<T>(var);
  }
  const npukb::kern::Span sp[2] = {vspan(src, xb), vspan(gx, xb)};
  const npukb::kern::Span dp[3] = {vspan(dst, xb), vspan(mean_out, mb), vspan(var_out, mb)};
  lib_cost(passes_of(sh.rows(), tiling.bsCurLength), 14, 10 * kLibSimple + 2 * kLibReduce + kLibTrans, sh.elems(), sp, 2,
           dp, 3);
}

// ---- Normalize ----------------------------------------------------------------------------------
template <typename U, typename T, bool kNoGamma, bool kNoBeta>
inline void normalize_run(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                          const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                          const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                          const LocalTensor<std::uint8_t>* tmp, float epsilon, const NormalizePara& para,
                          std::int32_t config_a, const char* file, int line) {
  const char* api = "Normalize";
  const std::uint32_t a = para.aLength, r = para.rLength, rp = para.rLengthWithPadding;
  if (a == 0 || r == 0 || rp == 0) {
    npukb::violation(api, "NormalizePara has an empty shape (aLength " + npukb::kern::num(a) + ", rLength " +
                     npukb::kern::num(r) + ", rLengthWithPadding " + npukb::kern::num(rp) + ")", file, line);
  }
  if (config_a != -1 && config_a != static_cast<std::int64_t>(a)) {
    npukb::violation(api, "NormalizeConfig.aLength " + npukb::kern::num(config_a) + " differs from para.aLength " +
                     npukb::kern::num(a) + " (it must be -1 or equal)", file, line);
  }
  if (static_cast<std::uint64_t>(rp) * sizeof(T) % 32 != 0) {
    npukb::violation(api, "rLengthWithPadding " + npukb::kern::num(rp) + " is not 32-byte aligned", file, line);
  }
  if (r > rp) npukb::violation(api, "rLength " + npukb::kern::num(r) + " exceeds rLengthWithPadding " + npukb::kern::num(rp), file, line);
  const std::uint64_t elems = static_cast<std::uint64_t>(a) * rp;
  const std::uint64_t xb = elems * sizeof(T), gb = static_cast<std::uint64_t>(rp) * sizeof(U), ab = static_cast<std::uint64_t>(a) * 4;
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "output", output, xb, true, file, line);
  check_local(api, "inputMean", inputMean, ab, true, file, line);
  check_local(api, "inputVariance", inputVariance, ab, true, file, line);
  check_local(api, "outputRstd", outputRstd, ab, true, file, line);
  if constexpr (!kNoGamma) check_local(api, "gamma", gamma, gb, true, file, line);
  if constexpr (!kNoBeta) check_local(api, "beta", beta, gb, true, file, line);
  check_no_overlap(api, "output", output, xb, "inputX", inputX, xb, file, line);
  tmp_or_framework(api, tmp, npukb_lib::NormalizeFixedBytes(rp, sizeof(U)) + npukb_lib::NormalizeRowBytes(rp, sizeof(T)),
                      0, "GetNormalizeMaxMinTmpSize", "", file, line);
  const std::vector<float> x = fp32_copy(inputX, elems), mean = fp32_copy(inputMean, a), var = fp32_copy(inputVariance, a);
  std::vector<float> g(rp, 1.0f), b(rp, 0.0f);
  if constexpr (!kNoGamma) g = fp32_copy(gamma, rp);
  if constexpr (!kNoBeta) b = fp32_copy(beta, rp);
  for (std::uint32_t i = 0; i < a; ++i) {
    const float rstd = 1.0f / __builtin_sqrtf(var[i] + epsilon);
    T* out = output.ptr() + static_cast<std::uint64_t>(i) * rp;
    for (std::uint32_t j = 0; j < rp; ++j) {
      float y = (x[static_cast<std::uint64_t>(i) * rp + j] - mean[i]) * rstd;
      if constexpr (!kNoGamma) y = y * g[j];
      if constexpr (!kNoBeta) y = y + b[j];
      out[j] = static_cast<T>(y);
    }
    outputRstd.ptr()[i] = rstd;
  }
  const npukb::kern::Span sp = vspan(inputX, xb);
  const npukb::kern::Span dp[2] = {vspan(output, xb), vspan(outputRstd, ab)};
  lib_cost(a, 6, 4 * kLibSimple + kLibTrans, elems, &sp, 1, dp, 2);
}

// ---- GroupNorm ----------------------------------------------------------------------------------
template <typename T>
inline void groupnorm_run(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                          const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX, const LocalTensor<T>& gamma,
                          const LocalTensor<T>& beta, const LocalTensor<std::uint8_t>* tmp, T epsilon,
                          const GroupNormTiling& tiling, const char* file, int line) {
  const char* api = "GroupNorm";
  const std::uint32_t n = tiling.n, c = tiling.c, hw = tiling.hw, g = tiling.g;
  if (n == 0 || c == 0 || hw == 0 || g == 0) {
    npukb::violation(api, "the tiling has no shape (n " + npukb::kern::num(n) + ", c " + npukb::kern::num(c) + ", hw " +
                     npukb::kern::num(hw) + ", g " + npukb::kern::num(g) + "): fill it with GetGroupNormNDTilingInfo on the host",
                     file, line);
  }
  if (c % g != 0) {
    npukb::violation(api, "C = " + npukb::kern::num(c) + " is not a multiple of groupNum " + npukb::kern::num(g), file, line);
  }
  const std::uint32_t d = c / g;
  const std::uint64_t elems = static_cast<std::uint64_t>(n) * c * hw, group = static_cast<std::uint64_t>(d) * hw;
  const std::uint64_t xb = elems * sizeof(T), cb = static_cast<std::uint64_t>(c) * sizeof(T),
                      mb = static_cast<std::uint64_t>(n) * g * sizeof(T);
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "output", output, xb, true, file, line);
  check_local(api, "gamma", gamma, cb, true, file, line);
  check_local(api, "beta", beta, cb, true, file, line);
  check_local(api, "outputMean", outputMean, mb, true, file, line);
  check_local(api, "outputVariance", outputVariance, mb, true, file, line);
  tmp_or_framework(api, tmp, npukb_lib::GroupNormGroupBytes(d, hw), static_cast<std::uint64_t>(tiling.tmpBufSize) * 4,
                      "GetGroupNormMaxMinTmpSize", "GetGroupNormNDTilingInfo", file, line);
  const std::vector<float> x = fp32_copy(inputX, elems), ga = fp32_copy(gamma, c), be = fp32_copy(beta, c);
  const float rec = 1.0f / static_cast<float>(group), eps = static_cast<float>(epsilon);
  for (std::uint32_t i = 0; i < n * g; ++i) {
    const float* grp = x.data() + static_cast<std::uint64_t>(i) * group;
    float mean = 0.0f, var = 0.0f;
    row_mean_var(grp, static_cast<std::uint32_t>(group), rec, mean, var);
    const float rstd = 1.0f / __builtin_sqrtf(var + eps);
    T* out = output.ptr() + static_cast<std::uint64_t>(i) * group;
    for (std::uint64_t k = 0; k < group; ++k) {
      const std::uint32_t ch = (i % g) * d + static_cast<std::uint32_t>(k / hw);
      out[k] = static_cast<T>(ga[ch] * ((grp[k] - mean) * rstd) + be[ch]);
    }
    outputMean.ptr()[i] = static_cast<T>(mean);
    outputVariance.ptr()[i] = static_cast<T>(var);
  }
  const npukb::kern::Span sp = vspan(inputX, xb);
  const npukb::kern::Span dp[3] = {vspan(output, xb), vspan(outputMean, mb), vspan(outputVariance, mb)};
  lib_cost(passes_of(n * g, tiling.bsCurLength), 12, 9 * kLibSimple + 2 * kLibReduce + kLibTrans, elems, &sp, 1, dp, 3);
}

}  // namespace sim

// ---- the public API -----------------------------------------------------------------------------

template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T epsilon, const RmsNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "RmsNorm: unsupported data type (half, float)");
  sim::rmsnorm_run<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling, file, line);
}
template <typename T, bool isBasicBlock = false>
inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<T>& gammaLocal,
                    const T epsilon, const RmsNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "RmsNorm: unsupported data type (half, float)");
  sim::rmsnorm_run<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling, file, line);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                      const T epsilon, BatchNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "BatchNorm: unsupported data type (half, float)");
  sim::batchnorm_run<T, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta, nullptr, epsilon, tiling,
                                      file, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false>
inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T epsilon, BatchNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "BatchNorm: unsupported data type (half, float)");
  sim::batchnorm_run<T, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta, &sharedTmpBuffer, epsilon,
                                      tiling, file, line);
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T alpha,
                     const T epsilon, DeepNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "DeepNorm: unsupported data type (half, float)");
  static_assert(!(isReuseSrc && std::is_same_v<T, half>), "DeepNorm: isReuseSrc is supported for float only");
  sim::deepnorm_run<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                                                 &sharedTmpBuffer, alpha, epsilon, tiling, file, line);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal, const LocalTensor<T>& rstdLocal,
                     const LocalTensor<T>& srcLocal, const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                     const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, DeepNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "DeepNorm: unsupported data type (half, float)");
  static_assert(!(isReuseSrc && std::is_same_v<T, half>), "DeepNorm: isReuseSrc is supported for float only");
  sim::deepnorm_run<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                                                 nullptr, alpha, epsilon, tiling, file, line);
}

#define NPUKB_NORMALIZE_CHECKS                                                                                        \
  static_assert(sim::norm_types<T>, "Normalize: unsupported data type of output / inputX (half, float)");              \
  static_assert((std::is_same_v<T, half> && sim::one_of<U, half, float>) ||                                            \
                    (std::is_same_v<T, float> && std::is_same_v<U, float>),                                            \
                "Normalize: gamma / beta (U) must be half or float and at least as precise as inputX (T)");           \
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: only ReducePattern::AR is supported");          \
  static_assert(!config.isOnlyOutput, "Normalize: NormalizeConfig.isOnlyOutput supports false only")

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float epsilon, const NormalizePara& para) { NPUKB_CALLER;
  NPUKB_NORMALIZE_CHECKS;
  sim::normalize_run<U, T, config.isNoGamma, config.isNoBeta>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
                                                               beta, &sharedTmpBuffer, epsilon, para, config.aLength, file,
                                                               line);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                      const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                      const float epsilon, const NormalizePara& para) { NPUKB_CALLER;
  NPUKB_NORMALIZE_CHECKS;
  sim::normalize_run<U, T, config.isNoGamma, config.isNoBeta>(output, outputRstd, inputMean, inputVariance, inputX, gamma,
                                                               beta, nullptr, epsilon, para, config.aLength, file, line);
}
#undef NPUKB_NORMALIZE_CHECKS

template <typename T, bool isReuseSource = false>
inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const T epsilon, GroupNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "GroupNorm: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "GroupNorm: isReuseSource is supported for float only");
  sim::groupnorm_run(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, epsilon, tiling, file, line);
}
template <typename T, bool isReuseSource = false>
inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T epsilon, GroupNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "GroupNorm: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "GroupNorm: isReuseSource is supported for float only");
  sim::groupnorm_run(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon, tiling, file, line);
}

}  // namespace AscendC
