// npukb_sim/kernel/lib_welford.h -- WelfordUpdate and WelfordFinalize for the Atlas A2 / A3 training
// series: LayerNorm statistics over a reduce axis split into blocks. Clean-room part of ascendc-sim,
// written from the API pages.
//
// WelfordUpdate, the i-th block x (nRec = 1 / i), per column j < abComputeLength:
//   mean_out = mean_in + (x - mean_in) * nRec,  M_out = M_in + (x - mean_in) * (x - mean_out);
// columns from abComputeLength to abLength are copied from the inputs when WelfordUpdateConfig.isInplace
// and left alone otherwise. WelfordFinalize folds abLength partial (mean_i, M_i) pairs into one mean and
// one variance: with counts (the counts tensor, or headCount for the first headCountLength columns and
// tailCount for the rest) mean = rRec * sum(counts_i * mean_i) and
// variance = rRec * (sum(M_i) + sum(counts_i * (mean_i - mean)^2)); without a tail (tailCount = 0)
// mean = abRec * sum(mean_i) and variance = rRec * (sum(M_i) + rnLength * sum((mean_i - mean)^2)). The
// page's example figures follow these. Results go to element 0 of the outputs. fp32 throughout, binary
// sums in the vector reductions' order.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/lib_norm_rows.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

struct WelfordUpdateConfig {
  bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
// The in-place configuration the page's example names.
constexpr WelfordUpdateConfig WELFORD_UPDATE_ENABLE_INPLACE_CFG = {true};

struct WelfordUpdateParam {
  std::uint32_t rnLength;
  std::uint32_t abLength;
  std::uint32_t abComputeLength;
  float nRec;
};

struct WelfordFinalizeConfig {
  bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  std::uint32_t rnLength;
  std::uint32_t abLength;
  std::uint32_t headCount;
  std::uint32_t headCountLength;
  std::uint32_t tailCount;
  std::uint32_t tailCountLength;
  float abRec;
  float rRec;
  float rRecWithCorrection;
};

namespace sim {

template <typename T, typename U, bool kInplace>
inline void welford_update_run(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                               const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                               const LocalTensor<T>& inputX, const LocalTensor<std::uint8_t>* tmp,
                               const WelfordUpdateParam& para, const char* file, int line) {
  const char* api = "WelfordUpdate";
  if (para.rnLength != 1) {
    npukb::violation(api, "para.rnLength is " + npukb::kern::num(para.rnLength) + "; only 1 is supported", file, line);
  }
  if (para.abLength == 0 || para.abLength % (32 / sizeof(T)) != 0) {
    npukb::violation(api, "para.abLength " + npukb::kern::num(para.abLength) + " is not a positive multiple of " +
                     npukb::kern::num(static_cast<long long>(32 / sizeof(T))) + " (32 / sizeof(T))", file, line);
  }
  if (para.abComputeLength == 0 || para.abComputeLength > para.abLength) {
    npukb::violation(api, "para.abComputeLength " + npukb::kern::num(para.abComputeLength) + " is outside (0, abLength = " +
                     npukb::kern::num(para.abLength) + "]", file, line);
  }
  const std::uint32_t n = para.abLength, k = para.abComputeLength;
  const std::uint64_t xb = static_cast<std::uint64_t>(n) * sizeof(T), ub = static_cast<std::uint64_t>(n) * sizeof(U);
  check_local(api, "inputX", inputX, xb, true, file, line);
  check_local(api, "inputMean", inputMean, ub, true, file, line);
  check_local(api, "inputVariance", inputVariance, ub, true, file, line);
  check_local(api, "outputMean", outputMean, ub, true, file, line);
  check_local(api, "outputVariance", outputVariance, ub, true, file, line);
  const char* outs[2] = {"outputMean", "outputVariance"};
  const LocalTensor<U>* out_t[2] = {&outputMean, &outputVariance};
  for (int o = 0; o < 2; ++o) {
    check_no_overlap(api, outs[o], *out_t[o], ub, "inputX", inputX, xb, file, line);
    check_no_overlap(api, outs[o], *out_t[o], ub, "inputMean", inputMean, ub, file, line);
    check_no_overlap(api, outs[o], *out_t[o], ub, "inputVariance", inputVariance, ub, file, line);
  }
  const std::uint64_t need = npukb_lib::WelfordUpdateBytes(n, sizeof(T));
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "WelfordUpdate needs for this abLength (GetWelfordUpdateMaxMinTmpSize's minimum)", file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "inputX", inputX, xb, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "inputMean", inputMean, ub, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "inputVariance", inputVariance, ub, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "outputMean", outputMean, ub, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "outputVariance", outputVariance, ub, file, line);
  } else {
    check_framework_tmp(api, need, "GetWelfordUpdateMaxMinTmpSize's minimum", file, line);
  }
  const float rec = para.nRec;
  for (std::uint32_t j = 0; j < k; ++j) {
    const float x = static_cast<float>(inputX.ptr()[j]);
    const float m0 = static_cast<float>(inputMean.ptr()[j]);
    const float d = x - m0;
    const float m1 = m0 + d * rec;
    outputMean.ptr()[j] = static_cast<U>(m1);
    outputVariance.ptr()[j] = static_cast<U>(static_cast<float>(inputVariance.ptr()[j]) + d * (x - m1));
  }
  if constexpr (kInplace) {
    for (std::uint32_t j = k; j < n; ++j) {
      outputMean.ptr()[j] = inputMean.ptr()[j];
      outputVariance.ptr()[j] = inputVariance.ptr()[j];
    }
  }
  const npukb::kern::Span sp[3] = {vspan(inputX, xb), vspan(inputMean, ub), vspan(inputVariance, ub)};
  const npukb::kern::Span dp[2] = {vspan(outputMean, ub), vspan(outputVariance, ub)};
  lib_cost(1, 7, 7 * kLibSimple, n, sp, 3, dp, 2);
}

inline void welford_finalize_run(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<std::int32_t>* counts, const LocalTensor<std::uint8_t>* tmp,
                                 const WelfordFinalizePara& para, const char* file, int line) {
  const char* api = "WelfordFinalize";
  const std::uint32_t n = para.abLength;
  if (n == 0 || n % 8 != 0) {
    npukb::violation(api, "para.abLength " + npukb::kern::num(n) + " is not a positive multiple of 8 (32 / sizeof(float))",
                     file, line);
  }
  if (counts == nullptr && para.headCountLength + para.tailCountLength != n) {
    npukb::violation(api, "para.headCountLength + para.tailCountLength (" + npukb::kern::num(para.headCountLength) + " + " +
                     npukb::kern::num(para.tailCountLength) + ") differs from para.abLength " + npukb::kern::num(n), file, line);
  }
  if (para.tailCount == 0 && para.tailCountLength != 0) {
    npukb::violation(api, "para.tailCountLength must be 0 when para.tailCount is 0 (Atlas A2 / A3)", file, line);
  }
  const std::uint64_t ib = static_cast<std::uint64_t>(n) * 4;
  check_local(api, "inputMean", inputMean, ib, true, file, line);
  check_local(api, "inputVariance", inputVariance, ib, true, file, line);
  check_local(api, "outputMean", outputMean, 4, true, file, line);
  check_local(api, "outputVariance", outputVariance, 4, true, file, line);
  if (counts != nullptr) check_local(api, "counts", *counts, ib, true, file, line);
  const char* outs[2] = {"outputMean", "outputVariance"};
  const LocalTensor<float>* out_t[2] = {&outputMean, &outputVariance};
  for (int o = 0; o < 2; ++o) {
    check_no_overlap(api, outs[o], *out_t[o], 32, "inputMean", inputMean, ib, file, line);
    check_no_overlap(api, outs[o], *out_t[o], 32, "inputVariance", inputVariance, ib, file, line);
    if (counts != nullptr) check_no_overlap(api, outs[o], *out_t[o], 32, "counts", *counts, ib, file, line);
  }
  const std::uint64_t need = npukb_lib::WelfordFinalizeBytes(n);
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "WelfordFinalize needs for this abLength (GetWelfordFinalizeMaxMinTmpSize's minimum)",
                     file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "inputMean", inputMean, ib, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "inputVariance", inputVariance, ib, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "outputMean", outputMean, 32, file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "outputVariance", outputVariance, 32, file, line);
    if (counts != nullptr) check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "counts", *counts, ib, file, line);
  } else {
    check_framework_tmp(api, need, "GetWelfordFinalizeMaxMinTmpSize's minimum", file, line);
  }
  const std::vector<float> mi = fp32_copy(inputMean, n), vi = fp32_copy(inputVariance, n);
  const bool weighted = counts != nullptr || para.tailCount != 0;
  std::vector<float> w(n);
  for (std::uint32_t j = 0; j < n; ++j) {
    w[j] = counts != nullptr ? static_cast<float>(counts->ptr()[j])
                             : static_cast<float>(j < para.headCountLength ? para.headCount : para.tailCount);
  }
  std::vector<float> t(n);
  float mean = 0.0f;
  if (weighted) {
    for (std::uint32_t j = 0; j < n; ++j) t[j] = w[j] * mi[j];
    mean = para.rRec * tree_sum(t.data(), n);
  } else {
    mean = para.abRec * tree_sum(mi.data(), n);
  }
  for (std::uint32_t j = 0; j < n; ++j) {
    const float d = mi[j] - mean;
    t[j] = (weighted ? w[j] : static_cast<float>(para.rnLength)) * d * d;
  }
  const float spread = tree_sum(t.data(), n);
  const float var = para.rRec * (tree_sum(vi.data(), n) + spread);
  outputMean.ptr()[0] = mean;
  outputVariance.ptr()[0] = var;
  const npukb::kern::Span sp[2] = {vspan(inputMean, ib), vspan(inputVariance, ib)};
  const npukb::kern::Span dp[2] = {vspan(outputMean, 32), vspan(outputVariance, 32)};
  lib_cost(1, 9, 6 * kLibSimple + 3 * kLibReduce, n, sp, 2, dp, 2);
}

template <typename T>
constexpr bool welford_x_types = one_of<T, half, float>;

}  // namespace sim

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                          const WelfordUpdateParam& para) { NPUKB_CALLER;
  static_assert(sim::welford_x_types<T>, "WelfordUpdate: unsupported inputX data type (half, float)");
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: the mean / variance data type must be float");
  sim::welford_update_run<T, U, config.isInplace>(outputMean, outputVariance, inputMean, inputVariance, inputX,
                                                  &sharedTmpBuffer, para, file, line);
}
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                          const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                          const LocalTensor<T>& inputX, const WelfordUpdateParam& para) { NPUKB_CALLER;
  static_assert(sim::welford_x_types<T>, "WelfordUpdate: unsupported inputX data type (half, float)");
  static_assert(std::is_same_v<U, float>, "WelfordUpdate: the mean / variance data type must be float");
  sim::welford_update_run<T, U, config.isInplace>(outputMean, outputVariance, inputMean, inputVariance, inputX, nullptr,
                                                  para, file, line);
}

#define NPUKB_WELFORD_FINALIZE_CHECKS \
  static_assert(!config.isCorrection, "WelfordFinalize: the corrected variance (isCorrection) is Ascend 950 only")

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<std::uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) { NPUKB_CALLER;
  NPUKB_WELFORD_FINALIZE_CHECKS;
  sim::welford_finalize_run(outputMean, outputVariance, inputMean, inputVariance, nullptr, &sharedTmpBuffer, para, file,
                            line);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<std::int32_t>& counts, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                            WelfordFinalizePara& para) { NPUKB_CALLER;
  NPUKB_WELFORD_FINALIZE_CHECKS;
  sim::welford_finalize_run(outputMean, outputVariance, inputMean, inputVariance, &counts, &sharedTmpBuffer, para, file,
                            line);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            WelfordFinalizePara& para) { NPUKB_CALLER;
  NPUKB_WELFORD_FINALIZE_CHECKS;
  sim::welford_finalize_run(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr, para, file, line);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                            const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                            const LocalTensor<std::int32_t>& counts, WelfordFinalizePara& para) { NPUKB_CALLER;
  NPUKB_WELFORD_FINALIZE_CHECKS;
  sim::welford_finalize_run(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr, para, file, line);
}
#undef NPUKB_WELFORD_FINALIZE_CHECKS

}  // namespace AscendC
