// npukb_sim/kernel/lib_softmax.h -- SoftMax and SoftmaxFlashV2 over the last axis of an [m, k] ND
// tensor. SoftMax: max = rowmax(src), dst = exp(src - max) / rowsum(exp(src - max)). SoftmaxFlashV2
// (FlashAttention-2's running softmax): without update max = rowmax(src), dst = exp(src - max),
// expSum = rowsum(dst); with update max = max(inMax, rowmax(src)), dst = exp(src - max),
// expMax = exp(inMax - max), expSum = expMax * inExpSum + rowsum(dst). The sum / max / expMax tensors
// hold each row's value repeated over one 32-byte block ([m, 32 / sizeof] elements); the incoming
// ones are read from each row's first element. The shape comes from SoftMaxShapeInfo {srcM, srcK,
// oriSrcM, oriSrcK} (srcK: the row stride, a whole number of 32-byte blocks; oriSrcK: the valid
// elements of a row), else from the source tensor's ShapeInfo (SetShapeInfo: rows = the product of
// the leading dims, srcK = the last dim, oriSrcK = the original shape's last dim), else from the
// tiling's srcM / srcK. Only the valid elements of a row are read and written. Computed in float
// from snapshots of the inputs (outputs may alias inputs, as FlashAttention's running sum and max
// do); the tiling only splits the work on hardware and does not change the result. Clean-room part
// of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npukb_sim/lib_tmp_sizes.h"
#include "npukb_sim/softmax_split.h"
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
// The rows a SoftMax-family call works on (see the header comment for where they come from).
struct SoftmaxRows {
  std::uint32_t m = 0;
  std::uint32_t k = 0;
  std::uint32_t valid_k = 0;
};
template <typename T>
inline SoftmaxRows softmax_rows(const char* api, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                                const SoftMaxShapeInfo& shape, const char* file, int line) {
  SoftmaxRows r;
  const ShapeInfo info = src.GetShapeInfo();
  if (shape.srcM != 0 || shape.srcK != 0) {
    r.m = shape.srcM != 0 ? shape.srcM : tiling.srcM;
    r.k = shape.srcK != 0 ? shape.srcK : tiling.srcK;
    r.valid_k = shape.oriSrcK != 0 ? shape.oriSrcK : r.k;
  } else if (info.shapeDim > 0) {
    r.m = 1;
    for (std::uint32_t i = 0; i + 1 < info.shapeDim; ++i) r.m *= info.shape[i];
    r.k = info.shape[info.shapeDim - 1];
    r.valid_k = info.originalShapeDim > 0 ? info.originalShape[info.originalShapeDim - 1] : r.k;
  } else {
    r.m = tiling.srcM;
    r.k = tiling.srcK;
    r.valid_k = r.k;
  }
  if (r.m == 0 || r.k == 0) {
    npukb::violation(api, "the shape is empty (srcM / srcK are 0 in the shape info, the source's ShapeInfo and the tiling)",
                     file, line);
  }
  if (r.k * sizeof(T) % 32 != 0) {
    npukb::violation(api, "srcK " + npukb::kern::num(r.k) + " is not a whole number of 32-byte blocks", file, line);
  }
  if (r.valid_k > r.k) npukb::violation(api, "oriSrcK exceeds srcK", file, line);
  return r;
}

template <typename T, typename S>
inline void softmax_run(const LocalTensor<T>& dst, const LocalTensor<S>* sum, const LocalTensor<S>* mx,
                        const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shape,
                        const char* file, int line) {
  const char* api = "SoftMax";
  const SoftmaxRows rows = softmax_rows(api, src, tiling, shape, file, line);
  const std::uint32_t m = rows.m, k = rows.k, valid_k = rows.valid_k;
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

// SoftmaxFlashV2 (update: fold in the running max and sum of the previous blocks).
template <typename T, typename S>
inline void softmax_flash_v2_run(bool update, const LocalTensor<T>& dst, const LocalTensor<S>& sum,
                                 const LocalTensor<S>& mx, const LocalTensor<T>& src, const LocalTensor<T>& exp_max,
                                 const LocalTensor<S>& in_sum, const LocalTensor<S>& in_max, const SoftMaxTiling& tiling,
                                 const SoftMaxShapeInfo& shape, const char* file, int line) {
  const char* api = "SoftmaxFlashV2";
  const SoftmaxRows rows = softmax_rows(api, src, tiling, shape, file, line);
  const std::uint32_t m = rows.m, k = rows.k, valid_k = rows.valid_k;
  const std::uint64_t bytes = static_cast<std::uint64_t>(m) * k * sizeof(T);
  const std::uint64_t block_bytes = static_cast<std::uint64_t>(m) * 32;
  check_local(api, "srcTensor", src, bytes, true, file, line);
  check_local(api, "dstTensor", dst, bytes, true, file, line);
  check_local(api, "expSumTensor", sum, block_bytes, true, file, line);
  check_local(api, "maxTensor", mx, block_bytes, true, file, line);
  const std::uint32_t per_blk = 32 / sizeof(S);
  const std::uint32_t per_blk_t = 32 / sizeof(T);
  std::vector<float> old_max, old_sum;
  if (update) {
    check_local(api, "inExpSumTensor", in_sum, block_bytes, true, file, line);
    check_local(api, "inMaxTensor", in_max, block_bytes, true, file, line);
    check_local(api, "expMaxTensor", exp_max, block_bytes, true, file, line);
    old_max.resize(m);
    old_sum.resize(m);
    for (std::uint32_t r = 0; r < m; ++r) {
      old_max[r] = static_cast<float>(in_max.ptr()[static_cast<std::uint64_t>(r) * per_blk]);
      old_sum[r] = static_cast<float>(in_sum.ptr()[static_cast<std::uint64_t>(r) * per_blk]);
    }
  }
  std::vector<T> in(static_cast<std::uint64_t>(m) * k);
  for (std::uint32_t r = 0; r < m; ++r) {
    const std::uint64_t at = static_cast<std::uint64_t>(r) * k;
    for (std::uint32_t c = 0; c < valid_k; ++c) in[at + c] = src.ptr()[at + c];
  }
  T* d = dst.ptr();
  for (std::uint32_t r = 0; r < m; ++r) {
    const std::uint64_t at = static_cast<std::uint64_t>(r) * k;
    float hi = update ? old_max[r] : static_cast<float>(in[at]);
    for (std::uint32_t c = 0; c < valid_k; ++c) hi = std::max(hi, static_cast<float>(in[at + c]));
    float total = 0.0f;
    for (std::uint32_t c = 0; c < valid_k; ++c) {
      const float e = __builtin_expf(static_cast<float>(in[at + c]) - hi);
      d[at + c] = static_cast<T>(e);
      total += e;
    }
    if (update) {
      const float scale = __builtin_expf(old_max[r] - hi);
      total += scale * old_sum[r];
      for (std::uint32_t j = 0; j < per_blk_t; ++j) exp_max.ptr()[static_cast<std::uint64_t>(r) * per_blk_t + j] = static_cast<T>(scale);
    }
    for (std::uint32_t j = 0; j < per_blk; ++j) {
      sum.ptr()[static_cast<std::uint64_t>(r) * per_blk + j] = static_cast<S>(total);
      mx.ptr()[static_cast<std::uint64_t>(r) * per_blk + j] = static_cast<S>(hi);
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
                    const LocalTensor<T>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not simulated");
  sim::softmax_run(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<half>& dst, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                    const LocalTensor<half>& src, const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not simulated");
  sim::softmax_run(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, file, line);
}
NPUKB_SOFTMAX_TEMPLATE
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not simulated");
  (void)sharedTmpBuffer;
  sim::softmax_run(dst, &sumTensor, &maxTensor, src, tiling, shapeInfo, file, line);
}
// Without the sum / max outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  sim::softmax_run<T, T>(dst, nullptr, nullptr, src, tiling, shapeInfo, file, line);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& shapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftMax: unsupported data type (half, float)");
  (void)sharedTmpBuffer;
  sim::softmax_run<T, T>(dst, nullptr, nullptr, src, tiling, shapeInfo, file, line);
}
#undef NPUKB_SOFTMAX_TEMPLATE

// The kernel-side tiling of SoftmaxFlashV2 for a shape known only at run time (workLocalSize: the
// work buffer in fp32 elements); the same fields as the host's SoftMaxFlashV2TilingFunc.
inline SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const std::uint32_t srcM, const std::uint32_t srcK,
                                                  const std::uint32_t dataTypeSize1, const std::uint32_t dataTypeSize2,
                                                  const std::uint32_t workLocalSize, const bool isUpdate = false,
                                                  const bool isBasicBlock = false, const bool isDataFormatNZ = false,
                                                  const bool isFlashOutputBrc = false) {
  (void)isBasicBlock;
  (void)isDataFormatNZ;
  (void)isFlashOutputBrc;
  SoftMaxTiling tiling{};
  ::npukb_softmax::PlainSoftMaxTiling adapter{tiling};
  ::npukb_softmax::FillRows(srcM, srcK, dataTypeSize2, npukb_lib::SoftMaxFlashV2MinTmpBytes(srcK, dataTypeSize1, isUpdate),
                          workLocalSize * npukb_lib::kFloatBytes, adapter);
  return tiling;
}

// S, the max / sum element type, is deduced: T itself, or float for a half source.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename S = T>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<S>& expSumTensor,
                           const LocalTensor<S>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<S>& inExpSumTensor,
                           const LocalTensor<S>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}) { NPUKB_CALLER;
  static_assert(sim::softmax_types<T>, "SoftmaxFlashV2: unsupported data type (half, float)");
  static_assert(std::is_same_v<S, T> || (std::is_same_v<T, half> && std::is_same_v<S, float>),
                "SoftmaxFlashV2: the sum / max tensors are of the source's type, or float for a half source");
  static_assert(!isDataFormatNZ, "SoftmaxFlashV2: the NZ data format is not simulated");
  sim::softmax_flash_v2_run(isUpdate, dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor,
                            inMaxTensor, tiling, softmaxShapeInfo, file, line);
}
// With a caller-provided work buffer (the simulator needs none).
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename S = T>
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<S>& expSumTensor,
                           const LocalTensor<S>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<S>& inExpSumTensor,
                           const LocalTensor<S>& inMaxTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  (void)sharedTmpBuffer;
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config, S>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, tiling, softmaxShapeInfo);
}

}  // namespace AscendC
