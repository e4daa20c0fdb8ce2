// npukb_sim/kernel/lib_softmax.h -- SoftMax over the last axis of an [m, k] ND tensor:
// max = rowmax(src), dst = exp(src - max) / rowsum(exp(src - max)); the optional sum / max outputs hold
// each row's value repeated over one 32-byte block ([m, 32 / sizeof] elements). The shape comes from
// SoftMaxShapeInfo {srcM, srcK, oriSrcM, oriSrcK} (srcK: the row stride, a whole number of 32-byte
// blocks; oriSrcK: the valid elements of a row), or from the tiling's srcM / srcK when it is left
// empty. Computed in float from a snapshot of src (dst may alias src); the tiling only splits the work
// on hardware and does not change the result. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

struct SoftMaxShapeInfo {
  std::uint32_t srcM = 0;
  std::uint32_t srcK = 0;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
};

struct SoftmaxConfig {
  bool isCheckTiling = true;
  std::uint32_t oriSrcM = 0;
  std::uint32_t oriSrcK = 0;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};

namespace sim {
template <typename T, typename S>
inline void softmax_run(const LocalTensor<T>& dst, const LocalTensor<S>* sum, const LocalTensor<S>* mx,
                        const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape,
                        const char* file, int line) {
  const char* api = "SoftMax";
  const std::uint32_t m = shape.srcM != 0 ? shape.srcM : tiling.srcM;
  const std::uint32_t k = shape.srcK != 0 ? shape.srcK : tiling.srcK;
  const std::uint32_t valid_k = shape.oriSrcK != 0 ? shape.oriSrcK : k;
  if (m == 0 || k == 0) npukb::violation(api, "the shape is empty (srcM / srcK are 0 in both the shape info and the tiling)", file, line);
  if (k * sizeof(T) % 32 != 0) {
    npukb::violation(api, "srcK " + npukb::kern::num(k) + " is not a whole number of 32-byte blocks", file, line);
  }
  if (valid_k > k) npukb::violation(api, "oriSrcK exceeds srcK", file, line);
  const std::uint64_t bytes = static_cast<std::uint64_t>(m) * k * sizeof(T);
  check_local(api, "src", src, bytes, true, file, line);
  check_local(api, "dst", dst, bytes, true, file, line);
  const std::uint32_t per_blk = 32 / sizeof(S);
  if (sum) check_local(api, "sumTensor", *sum, static_cast<std::uint64_t>(m) * 32, true, file, line);
  if (mx) check_local(api, "maxTensor", *mx, static_cast<std::uint64_t>(m) * 32, true, file, line);
  const std::vector<T> in(src.ptr(), src.ptr() + static_cast<std::uint64_t>(m) * k);
  T* d = dst.ptr();
  std::vector<float> e(valid_k);
  for (std::uint32_t r = 0; r < m; ++r) {
    const T* row = in.data() + static_cast<std::uint64_t>(r) * k;
    float hi = static_cast<float>(row[0]);
    for (std::uint32_t c = 1; c < valid_k; ++c) hi = std::max(hi, static_cast<float>(row[c]));
    float total = 0.0f;
    for (std::uint32_t c = 0; c < valid_k; ++c) {
      e[c] = __builtin_expf(static_cast<float>(row[c]) - hi);
      total += e[c];
    }
    for (std::uint32_t c = 0; c < valid_k; ++c) d[static_cast<std::uint64_t>(r) * k + c] = static_cast<T>(e[c] / total);
    for (std::uint32_t j = 0; j < per_blk; ++j) {
      if (sum) sum->ptr()[static_cast<std::uint64_t>(r) * per_blk + j] = static_cast<S>(total);
      if (mx) mx->ptr()[static_cast<std::uint64_t>(r) * per_blk + j] = static_cast<S>(hi);
    }
  }
  const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
  vec_cost(static_cast<double>(npukb::kern::VecCost::HighLevel), static_cast<std::uint32_t>((bytes + 255) / 256), &sp, 1, &dp, 1);
}
template <typename T>
constexpr bool softmax_types = one_of<T, half, float>;
}  // namespace sim

#define NPUKB_SOFTMAX_TEMPLATE \
  template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false, \
            const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>

NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {},
                    NPUKB_LOC_PARAMS) {
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not simulated");
  sim::softmax_run(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                    const LocalTensor<half>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {},
                    NPUKB_LOC_PARAMS) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not simulated");
  sim::softmax_run(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& shapeInfo = {}, NPUKB_LOC_PARAMS) {
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not simulated");
  (void)sharedTmpBuffer;
  sim::softmax_run(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, file, line);
}
// Without the sum / max outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& shapeInfo = {}, NPUKB_LOC_PARAMS) {
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  sim::softmax_run<T, T>(dst, nullptr, nullptr, src, tiling, shapeInfo, file, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}, NPUKB_LOC_PARAMS) {
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  (void)sharedTmpBuffer;
  sim::softmax_run<T, T>(dst, nullptr, nullptr, src, tiling, shapeInfo, file, line);
}
#undef NPUKB_SOFTMAX_TEMPLATE

}  // namespace AscendC
