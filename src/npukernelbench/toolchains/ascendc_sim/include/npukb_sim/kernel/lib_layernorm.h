// npukb_sim/kernel/lib_layernorm.h -- LayerNorm (both interface forms), LayerNormGrad and
// LayerNormGradBeta for the Atlas A2 / A3 training series. Clean-room part of ascendc-sim, written
// from the API pages' formulas and constraints.
//
// LayerNorm [B, S, H] (LayerNormTiling): per row mean = sum(x / H'), variance = sum((x - mean)^2 / H'),
// y = (x - mean) * exp(-0.5 * ln(variance + eps)) * gamma + beta; mean and variance are [B, S] outputs
// of T. H' is the tiling's originalHLength (statistics over the valid columns; the padding columns of
// y get the formula applied to the padded input). LayerNorm [A, R] (LayerNormSeparateTiling,
// LayerNormPara): the same with rstd = 1 / sqrt(variance + eps) written to a float [A] output and the
// mean to a float [A] output; gamma / beta of type U (at least T's precision) or left out through
// LayerNormConfig. LayerNormGrad: the documented pd_var / pd_mean / pd_x / res_for_gamma formulas per
// row; LayerNormGradBeta: pd_gamma = sum over rows of dy * resForGamma, pd_beta = sum over rows of dy.
// Every API computes in fp32 from a snapshot of its inputs (outputs may alias inputs where the page
// allows it) with binary sums in the vector reductions' order, and rounds each output once. The tiling's
// split into passes changes the cost, not the result.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/kernel/lib_norm_rows.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

// The documented fields; the two-value constructor (A and the padded R, R = the padded R) is the one
// the host-tiling page's kernel example uses.
struct LayerNormPara {
  LayerNormPara() = default;
  LayerNormPara(std::uint32_t aLengthIn, std::uint32_t rLengthWithPaddingIn)
      : aLength(aLengthIn), rLength(rLengthWithPaddingIn), rLengthWithPadding(rLengthWithPaddingIn) {}
  LayerNormPara(std::uint32_t aLengthIn, std::uint32_t rLengthIn, std::uint32_t rLengthWithPaddingIn)
      : aLength(aLengthIn), rLength(rLengthIn), rLengthWithPadding(rLengthWithPaddingIn) {}
  std::uint32_t aLength = 0;
  std::uint32_t rLength = 0;
  std::uint32_t rLengthWithPadding = 0;
};

struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;
};

namespace sim {

// ---- LayerNorm [B, S, H] ------------------------------------------------------------------------
template <typename T>
inline void layernorm_bsh_run(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                              const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                              const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                              const LocalTensor<std::uint8_t>* tmp, T epsilon, const LayerNormTiling& tiling, bool reuse,
                              const char* file, int line) {
  const char* api = "LayerNorm";
  const BshShape sh = bsh_from_tiling<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                         "GetLayerNormNDTilingInfo", file, line);
  const std::uint64_t xb = sh.elems() * sizeof(T), hb = static_cast<std::uint64_t>(sh.h) * sizeof(T),
                      mb = static_cast<std::uint64_t>(sh.rows()) * sizeof(T);
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "output", output, xb, true, file, line);
  check_local(api, "gamma", gamma, hb, true, file, line);
  check_local(api, "beta", beta, hb, true, file, line);
  check_local(api, "outputMean", outputMean, mb, true, file, line);
  check_local(api, "outputVariance", outputVariance, mb, true, file, line);
  // output may share inputX's memory; the other outputs may share no input's.
  check_no_overlap(api, "outputMean", outputMean, mb, "inputX", inputX, xb, file, line);
  check_no_overlap(api, "outputVariance", outputVariance, mb, "inputX", inputX, xb, file, line);
  check_no_overlap(api, "output", output, xb, "gamma", gamma, hb, file, line);
  check_no_overlap(api, "output", output, xb, "beta", beta, hb, file, line);
  const std::uint64_t need = npukb_lib::LayerNormRowBytes(sh.h, sizeof(T), reuse);
  const std::uint64_t planned = static_cast<std::uint64_t>(tiling.tmpBufSize) * 4;
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "LayerNorm needs for one row of this H (GetLayerNormMaxMinTmpSize's minimum)", file, line);
    check_tmp_buffer(api, *tmp, planned, "the tiling was planned for (stackBufferSize of GetLayerNormNDTilingInfo)", file, line);
  } else {
    check_framework_tmp(api, need > planned ? need : planned, "the tiling's stackBufferSize", file, line);
  }
  const std::vector<float> x = fp32_copy(inputX, sh.elems()), g = fp32_copy(gamma, sh.h), b = fp32_copy(beta, sh.h);
  const float rec = 1.0f / static_cast<float>(sh.valid), eps = static_cast<float>(epsilon);
  for (std::uint32_t r = 0; r < sh.rows(); ++r) {
    const float* row = x.data() + static_cast<std::uint64_t>(r) * sh.h;
    float mean = 0.0f, var = 0.0f;
    row_mean_var(row, sh.valid, rec, mean, var);
    const float rstd = __builtin_expf(-0.5f * __builtin_logf(var + eps));
    T* out = output.ptr() + static_cast<std::uint64_t>(r) * sh.h;
    for (std::uint32_t j = 0; j < sh.h; ++j) out[j] = static_cast<T>((row[j] - mean) * rstd * g[j] + b[j]);
    outputMean.ptr()[r] = static_cast<T>(mean);
    outputVariance.ptr()[r] = static_cast<T>(var);
  }
  const npukb::kern::Span sp[3] = {vspan(inputX, xb), vspan(gamma, hb), vspan(beta, hb)};
  const npukb::kern::Span dp[3] = {vspan(output, xb), vspan(outputMean, mb), vspan(outputVariance, mb)};
  const std::uint32_t per_pass = tiling.bsCurLength;
  lib_cost(passes_of(sh.rows(), per_pass), 15, 9 * kLibSimple + 2 * kLibReduce + 2 * kLibTrans, sh.elems(), sp, 3, dp, 3);
}

// ---- LayerNorm [A, R] ---------------------------------------------------------------------------
template <typename U, typename T, bool kNoGamma, bool kNoBeta>
inline void layernorm_ar_run(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                             const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                             const LocalTensor<U>& gamma, const LocalTensor<U>& beta, float epsilon,
                             const LocalTensor<std::uint8_t>* tmp, const LayerNormPara& para,
                             const LayerNormSeparateTiling& tiling, const char* file, int line) {
  const char* api = "LayerNorm";
  const std::uint32_t a = para.aLength, r = para.rLength, rp = para.rLengthWithPadding;
  if (a == 0 || rp == 0 || r == 0) {
    npukb::violation(api, "LayerNormPara has an empty shape (aLength " + npukb::kern::num(a) + ", rLength " +
                     npukb::kern::num(r) + ", rLengthWithPadding " + npukb::kern::num(rp) + ")", file, line);
  }
  if (static_cast<std::uint64_t>(rp) * sizeof(T) % 32 != 0) {
    npukb::violation(api, "rLengthWithPadding " + npukb::kern::num(rp) + " is not 32-byte aligned", file, line);
  }
  if (r > rp) npukb::violation(api, "rLength " + npukb::kern::num(r) + " exceeds rLengthWithPadding " + npukb::kern::num(rp), file, line);
  if (tiling.aLength == 0) {
    npukb::violation(api, "the tiling has no shape (aLength 0): fill it with GetLayerNormNDTilingInfo on the host", file, line);
  }
  if (a > tiling.aLength) {
    npukb::violation(api, "para.aLength " + npukb::kern::num(a) + " exceeds the A of the tiling (" +
                     npukb::kern::num(tiling.aLength) + "): A may be set at run time, but not above the host's shape", file, line);
  }
  const std::uint64_t elems = static_cast<std::uint64_t>(a) * rp;
  const std::uint64_t xb = elems * sizeof(T), gb = static_cast<std::uint64_t>(rp) * sizeof(U), mb = static_cast<std::uint64_t>(a) * 4;
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "output", output, xb, true, file, line);
  if constexpr (!kNoGamma) check_local(api, "gamma", gamma, gb, true, file, line);
  if constexpr (!kNoBeta) check_local(api, "beta", beta, gb, true, file, line);
  check_local(api, "outputMean", outputMean, mb, true, file, line);
  check_local(api, "outputRstd", outputRstd, mb, true, file, line);
  check_no_overlap(api, "output", output, xb, "inputX", inputX, xb, file, line);
  const std::uint64_t need = npukb_lib::LayerNormRstdRowBytes(rp, sizeof(T));
  const std::uint64_t planned = static_cast<std::uint64_t>(tiling.tmpBufSize) * 4;
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "LayerNorm needs for one row of this R (GetLayerNormMaxMinTmpSize's minimum)", file, line);
    check_tmp_buffer(api, *tmp, planned, "the tiling was planned for (stackBufferSize of GetLayerNormNDTilingInfo)", file, line);
  } else {
    check_framework_tmp(api, need > planned ? need : planned, "the tiling's stackBufferSize", file, line);
  }
  const std::vector<float> x = fp32_copy(inputX, elems);
  std::vector<float> g(rp, 1.0f), b(rp, 0.0f);
  if constexpr (!kNoGamma) g = fp32_copy(gamma, rp);
  if constexpr (!kNoBeta) b = fp32_copy(beta, rp);
  const float rec = 1.0f / static_cast<float>(r);
  for (std::uint32_t i = 0; i < a; ++i) {
    const float* row = x.data() + static_cast<std::uint64_t>(i) * rp;
    float mean = 0.0f, var = 0.0f;
    row_mean_var(row, r, rec, mean, var);
    const float rstd = 1.0f / __builtin_sqrtf(var + epsilon);
    T* out = output.ptr() + static_cast<std::uint64_t>(i) * rp;
    for (std::uint32_t j = 0; j < rp; ++j) {
      float y = (row[j] - mean) * rstd;
      if constexpr (!kNoGamma) y = y * g[j];
      if constexpr (!kNoBeta) y = y + b[j];
      out[j] = static_cast<T>(y);
    }
    outputMean.ptr()[i] = mean;
    outputRstd.ptr()[i] = rstd;
  }
  const npukb::kern::Span sp = vspan(inputX, xb);
  const npukb::kern::Span dp[3] = {vspan(output, xb), vspan(outputMean, mb), vspan(outputRstd, mb)};
  lib_cost(a, 12, 8 * kLibSimple + 2 * kLibReduce + kLibTrans, elems, &sp, 1, dp, 3);
}

template <typename U, typename T>
constexpr bool layernorm_gamma_types = (std::is_same_v<T, half> && one_of<U, half, float>) ||
                                       (std::is_same_v<T, float> && std::is_same_v<U, float>);

// ---- LayerNormGrad ------------------------------------------------------------------------------
template <typename T>
inline void layernorm_grad_run(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                               const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                               const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                               const LocalTensor<T>& inputGamma, const LocalTensor<std::uint8_t>* tmp, T epsilon,
                               const LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo, bool reuse,
                               const char* file, int line) {
  const char* api = "LayerNormGrad";
  if (shapeInfo.dataFormat != DataFormat::ND) {
    npukb::violation(api, "only the ND data format is supported (LayerNormGradShapeInfo.dataFormat)", file, line);
  }
  const BshShape sh = bsh_from_tiling<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                         "GetLayerNormGradNDTilingInfo", file, line);
  const std::uint64_t xb = sh.elems() * sizeof(T), hb = static_cast<std::uint64_t>(sh.h) * sizeof(T),
                      mb = static_cast<std::uint64_t>(sh.rows()) * sizeof(T);
  check_local(api, "inputDy", inputDy, xb, true, file, line);
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "inputVariance", inputVariance, mb, true, file, line);
  check_local(api, "inputMean", inputMean, mb, true, file, line);
  check_local(api, "inputGamma", inputGamma, hb, true, file, line);
  check_local(api, "outputPdX", outputPdX, xb, true, file, line);
  check_local(api, "resForGamma", resForGamma, xb, true, file, line);
  const std::uint64_t need = npukb_lib::LayerNormGradRowBytes(sh.h, sizeof(T), reuse);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "LayerNormGrad needs for one row of this H (GetLayerNormGradMaxMinTmpSize's minimum)",
                     file, line);
  } else {
    check_framework_tmp(api, need, "GetLayerNormGradMaxMinTmpSize's minimum", file, line);
  }
  const std::vector<float> dy = fp32_copy(inputDy, sh.elems()), x = fp32_copy(inputX, sh.elems()),
                           var = fp32_copy(inputVariance, sh.rows()), mean = fp32_copy(inputMean, sh.rows()),
                           g = fp32_copy(inputGamma, sh.h);
  const float eps = static_cast<float>(epsilon), rec = 1.0f / static_cast<float>(sh.valid);
  std::vector<float> x1(sh.h), x2(sh.h), t(sh.h);
  for (std::uint32_t r = 0; r < sh.rows(); ++r) {
    const std::uint64_t at = static_cast<std::uint64_t>(r) * sh.h;
    const float ve = var[r] + eps;
    const float sq = __builtin_sqrtf(ve);
    const float inv = 1.0f / sq;            // (var + eps)^-0.5
    const float inv15 = 1.0f / (sq * ve);   // (var + eps)^-1.5
    for (std::uint32_t j = 0; j < sh.h; ++j) {
      x1[j] = dy[at + j] * g[j];
      x2[j] = x[at + j] - mean[r];
    }
    for (std::uint32_t j = 0; j < sh.valid; ++j) t[j] = -0.5f * x1[j] * x2[j] * inv15;
    const float pd_var = tree_sum(t.data(), sh.valid);
    for (std::uint32_t j = 0; j < sh.valid; ++j) t[j] = -1.0f * x1[j] * inv;
    const float sum1 = tree_sum(t.data(), sh.valid);
    for (std::uint32_t j = 0; j < sh.valid; ++j) t[j] = -2.0f * x2[j];
    const float pd_mean = sum1 + pd_var * rec * tree_sum(t.data(), sh.valid);
    for (std::uint32_t j = 0; j < sh.h; ++j) {
      outputPdX.ptr()[at + j] = static_cast<T>(x1[j] * inv + pd_var * (2.0f * rec) * x2[j] + pd_mean * rec);
      resForGamma.ptr()[at + j] = static_cast<T>(x2[j] * inv);
    }
  }
  const npukb::kern::Span sp[3] = {vspan(inputDy, xb), vspan(inputX, xb), vspan(inputGamma, hb)};
  const npukb::kern::Span dp[2] = {vspan(outputPdX, xb), vspan(resForGamma, xb)};
  lib_cost(passes_of(sh.rows(), tiling.nohCalSize), 20, 14 * kLibSimple + 3 * kLibReduce + 2 * kLibTrans, sh.elems(),
           sp, 3, dp, 2);
}

// ---- LayerNormGradBeta --------------------------------------------------------------------------
template <typename T>
inline void layernorm_grad_beta_run(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                    const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                    const LocalTensor<std::uint8_t>* tmp, const LayerNormGradBetaTiling& tiling,
                                    const char* file, int line) {
  const char* api = "LayerNormGradBeta";
  const BshShape sh = bsh_from_tiling<T>(api, tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                         "GetLayerNormGradBetaNDTilingInfo", file, line);
  const std::uint64_t xb = sh.elems() * sizeof(T), hb = static_cast<std::uint64_t>(sh.h) * sizeof(T);
  check_local(api, "resForGamma", resForGamma, xb, true, file, line);
  check_local(api, "inputDy", inputDy, xb, true, file, line);
  check_local(api, "outputPdGamma", outputPdGamma, hb, true, file, line);
  check_local(api, "outputPdBeta", outputPdBeta, hb, true, file, line);
  const std::uint64_t need = npukb_lib::LayerNormGradBetaFixedBytes(sh.h) + npukb_lib::LayerNormGradBetaRowBytes(sh.h, sizeof(T));
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "LayerNormGradBeta needs for one row of this H (GetLayerNormGradBetaMaxMinTmpSize's minimum)",
                     file, line);
  } else {
    check_framework_tmp(api, need, "GetLayerNormGradBetaMaxMinTmpSize's minimum", file, line);
  }
  const std::vector<float> res = fp32_copy(resForGamma, sh.elems()), dy = fp32_copy(inputDy, sh.elems());
  std::vector<float> pg(sh.rows()), pb(sh.rows());
  for (std::uint32_t j = 0; j < sh.h; ++j) {
    for (std::uint32_t r = 0; r < sh.rows(); ++r) {
      const std::uint64_t at = static_cast<std::uint64_t>(r) * sh.h + j;
      pg[r] = dy[at] * res[at];
      pb[r] = dy[at];
    }
    outputPdGamma.ptr()[j] = static_cast<T>(tree_sum(pg.data(), sh.rows()));
    outputPdBeta.ptr()[j] = static_cast<T>(tree_sum(pb.data(), sh.rows()));
  }
  const npukb::kern::Span sp[2] = {vspan(resForGamma, xb), vspan(inputDy, xb)};
  const npukb::kern::Span dp[2] = {vspan(outputPdGamma, hb), vspan(outputPdBeta, hb)};
  lib_cost(passes_of(sh.rows(), tiling.bsCurLength), 4, 3 * kLibSimple, sh.elems(), sp, 2, dp, 2);
}

}  // namespace sim

// ---- the public API -----------------------------------------------------------------------------

template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const LocalTensor<std::uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "LayerNorm: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "LayerNorm: isReuseSource is supported for float only");
  sim::layernorm_bsh_run(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon, tiling,
                         isReuseSource, file, line);
}
template <typename T, bool isReuseSource = false>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean, const LocalTensor<T>& outputVariance,
                      const LocalTensor<T>& inputX, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                      const T epsilon, LayerNormTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "LayerNorm: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "LayerNorm: isReuseSource is supported for float only");
  sim::layernorm_bsh_run(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, epsilon, tiling, isReuseSource,
                         file, line);
}

#define NPUKB_LAYERNORM_AR_CHECKS                                                                                     \
  static_assert(sim::norm_types<T>, "LayerNorm: unsupported data type of output / inputX (half, float)");              \
  static_assert(sim::layernorm_gamma_types<U, T>,                                                                      \
                "LayerNorm: gamma / beta (U) must be half or float and at least as precise as inputX (T)");           \
  static_assert(!config.isOnlyOutput, "LayerNorm: LayerNormConfig.isOnlyOutput supports false only");                 \
  static_assert(config.isOutputRstd,                                                                                   \
                "LayerNorm: the variance output (LayerNormConfig.isOutputRstd = false) is Ascend 950 only")

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                      const LayerNormPara& para, const LayerNormSeparateTiling& tiling) { NPUKB_CALLER;
  NPUKB_LAYERNORM_AR_CHECKS;
  sim::layernorm_ar_run<U, T, config.isNoGamma, config.isNoBeta>(output, outputMean, outputRstd, inputX, gamma, beta,
                                                                  epsilon, &sharedTmpBuffer, para, tiling, file, line);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                      const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                      const LocalTensor<U>& beta, const float epsilon, const LayerNormPara& para,
                      const LayerNormSeparateTiling& tiling) { NPUKB_CALLER;
  NPUKB_LAYERNORM_AR_CHECKS;
  sim::layernorm_ar_run<U, T, config.isNoGamma, config.isNoBeta>(output, outputMean, outputRstd, inputX, gamma, beta,
                                                                  epsilon, nullptr, para, tiling, file, line);
}
#undef NPUKB_LAYERNORM_AR_CHECKS

template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                          const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                          const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, LocalTensor<std::uint8_t>& sharedTmpBuffer, T epsilon,
                          LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "LayerNormGrad: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "LayerNormGrad: isReuseSource is supported for float only");
  sim::layernorm_grad_run(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, &sharedTmpBuffer,
                          epsilon, tiling, shapeInfo, isReuseSource, file, line);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                          const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                          const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                          const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                          const LayerNormGradShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "LayerNormGrad: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "LayerNormGrad: isReuseSource is supported for float only");
  sim::layernorm_grad_run(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, nullptr, epsilon,
                          tiling, shapeInfo, isReuseSource, file, line);
}

template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              const LocalTensor<std::uint8_t>& sharedTmpBuffer, const LayerNormGradBetaTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "LayerNormGradBeta: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "LayerNormGradBeta: isReuseSource is supported for float only");
  sim::layernorm_grad_beta_run(outputPdGamma, outputPdBeta, resForGamma, inputDy, &sharedTmpBuffer, tiling, file, line);
}
template <typename T, bool isReuseSource = false>
inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                              const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                              LayerNormGradBetaTiling& tiling) { NPUKB_CALLER;
  static_assert(sim::norm_types<T>, "LayerNormGradBeta: unsupported data type (half, float)");
  static_assert(!(isReuseSource && std::is_same_v<T, half>), "LayerNormGradBeta: isReuseSource is supported for float only");
  sim::layernorm_grad_beta_run(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr, tiling, file, line);
}

}  // namespace AscendC
