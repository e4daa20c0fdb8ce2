// npukb_sim/kernel/lib_math_arith.h -- the library's arithmetic APIs, every documented overload: the
// high-level Axpy (dst = src * scalar + dst through a sharedTmpBuffer; (dst, src) types (half, half),
// (float, float), (float, half)), ClampMax / ClampMin (min / max with a scalar; a NaN source stays NaN),
// Xor (int16_t, uint16_t) and CumSum (running sums along the first or last axis of an [outter, inner]
// tensor, accumulated in fp32, with the optional last row / column). Clean-room part of ascendc-sim
// (included by lib_math.h).
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/lib_math.h"

namespace AscendC {

// ---- Axpy (high-level form) -------------------------------------------------------------------------
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                 const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::axpy_ok<T, U>, "Axpy: supported (dst, src) types are (half, half), (float, float), (float, half)");
  if (calCount == 0) return;
  const std::uint64_t db = static_cast<std::uint64_t>(calCount) * sizeof(T), sb = static_cast<std::uint64_t>(calCount) * sizeof(U);
  sim::hl_operand("Axpy", "dstTensor", dstTensor, db, file, line);
  sim::hl_operand("Axpy", "srcTensor", srcTensor, sb, file, line);
  sim::hl_tmp("Axpy", sharedTmpBuffer, npukb_lib::ElemMinTmpBytes(npukb_lib::AxpyTmpFactor(sizeof(U), false), calCount, sizeof(U)),
              npukb_lib::ElemMaxTmpBytes(npukb_lib::AxpyTmpFactor(sizeof(U), false), calCount, sizeof(U)),
              {sim::ub_range(dstTensor, db, "dstTensor"), sim::ub_range(srcTensor, sb, "srcTensor")}, file, line);
  const std::vector<U> x(srcTensor.ptr(), srcTensor.ptr() + calCount);
  const float s = static_cast<float>(scalarValue);
  T* d = dstTensor.ptr();
  for (std::uint32_t i = 0; i < calCount; ++i) d[i] = static_cast<T>(static_cast<float>(x[i]) * s + static_cast<float>(d[i]));
  sim::count_plan(calCount, 64);
  const npukb::kern::Span sp[2] = {sim::vspan(srcTensor, sb), sim::vspan(dstTensor, db)};
  const npukb::kern::Span dp = sim::vspan(dstTensor, db);
  sim::hl_cost(sim::HlSeq{2, 0, 0}, calCount, sizeof(T), sizeof(U) < 4, sp, 2, &dp, 1);
}

// ---- ClampMax / ClampMin ----------------------------------------------------------------------------
namespace sim {
template <typename T, bool kMax>
inline void clamp_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>* tmp, T scalar,
                      std::uint32_t count, const char* file, int line) {
  const HlSrc<T> s[1] = {{&src, "srcTensor"}};
  const float c = static_cast<float>(scalar);
  hl_elementwise(kMax ? "ClampMax" : "ClampMin", dst, "dstTensor", s, tmp, count, npukb_lib::ClampTmpFactor(sizeof(T), false),
                 HlSeq{2, 0, 0}, [c](float x) { return kMax ? (x > c ? c : x) : (x < c ? c : x); }, file, line);
}
}  // namespace sim

template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                     const T scalar, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "ClampMax: unsupported data type (half, float)");
  sim::clamp_run<T, true>(dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "ClampMax: unsupported data type (half, float)");
  sim::clamp_run<T, true>(dstTensor, srcTensor, nullptr, scalar, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                     const T scalar, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "ClampMin: unsupported data type (half, float)");
  sim::clamp_run<T, false>(dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "ClampMin: unsupported data type (half, float)");
  sim::clamp_run<T, false>(dstTensor, srcTensor, nullptr, scalar, calCount, file, line);
}

// ---- Xor ----------------------------------------------------------------------------------------------
namespace sim {
template <typename T>
inline void xor_run(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<std::uint8_t>* tmp,
                    std::uint32_t count, const char* file, int line) {
  // The docs bound calCount by every operand's size.
  if (count > dst.GetSize() || count > a.GetSize() || count > b.GetSize()) {
    npukb::violation("Xor", "calCount " + npukb::kern::num(count) + " exceeds the elements of dstTensor (" +
                     npukb::kern::num(dst.GetSize()) + "), src0Tensor (" + npukb::kern::num(a.GetSize()) +
                     ") or src1Tensor (" + npukb::kern::num(b.GetSize()) + ")", file, line);
  }
  const HlSrc<T> s[2] = {{&a, "src0Tensor"}, {&b, "src1Tensor"}};
  hl_elementwise("Xor", dst, "dstTensor", s, tmp, count, npukb_lib::XorTmpFactor(sizeof(T), false), HlSeq{4, 0, 0},
                 [](T x, T y) { return static_cast<T>(x ^ y); }, file, line);
}
template <typename T>
constexpr bool xor_types = one_of<T, std::int16_t, std::uint16_t>;
}  // namespace sim

template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                const LocalTensor<std::uint8_t>& sharedTmpBuffer, const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::xor_types<T>, "Xor: unsupported data type (int16_t, uint16_t)");
  sim::xor_run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  static_assert(sim::xor_types<T>, "Xor: unsupported data type (int16_t, uint16_t)");
  sim::hl_same_size("Xor", src0Tensor, "src0Tensor", src1Tensor, "src1Tensor", file, line);
  sim::xor_run(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, src0Tensor.GetSize(), file, line);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor,
                const std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::xor_types<T>, "Xor: unsupported data type (int16_t, uint16_t)");
  sim::xor_run(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, file, line);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor) { NPUKB_CALLER;
  static_assert(sim::xor_types<T>, "Xor: unsupported data type (int16_t, uint16_t)");
  sim::hl_same_size("Xor", src0Tensor, "src0Tensor", src1Tensor, "src1Tensor", file, line);
  sim::xor_run(dstTensor, src0Tensor, src1Tensor, nullptr, src0Tensor.GetSize(), file, line);
}

// ---- CumSum -------------------------------------------------------------------------------------------
namespace sim {
template <typename T, const CumSumConfig& config>
inline void cumsum_run(const LocalTensor<T>& dst, const LocalTensor<T>& last, const LocalTensor<T>& src,
                       const LocalTensor<std::uint8_t>* tmp, const CumSumInfo& info, const char* file, int line) {
  const char* api = "CumSum";
  const std::uint32_t m = info.outter, n = info.inner;
  if (m == 0 || n == 0) {
    npukb::violation(api, "cumSumInfo.outter (" + npukb::kern::num(m) + ") and cumSumInfo.inner (" + npukb::kern::num(n) +
                     ") must both be greater than 0", file, line);
  }
  if (n * sizeof(T) % 32 != 0) {
    npukb::violation(api, "cumSumInfo.inner * sizeof(T) = " + npukb::kern::num(static_cast<long long>(n * sizeof(T))) +
                     " bytes is not a multiple of 32", file, line);
  }
  const std::uint64_t total = static_cast<std::uint64_t>(m) * n;
  if (total > src.GetSize() || total > dst.GetSize()) {
    npukb::violation(api, "cumSumInfo.outter * inner = " + npukb::kern::num(static_cast<long long>(total)) +
                     " exceeds the elements of srcTensor (" + npukb::kern::num(src.GetSize()) + ") or dstTensor (" +
                     npukb::kern::num(dst.GetSize()) + ")", file, line);
  }
  const std::uint32_t last_len = config.isLastAxis ? m : n;
  if (config.outputLastRow && last.GetSize() < last_len) {
    npukb::violation(api, std::string("lastRowTensor holds ") + npukb::kern::num(last.GetSize()) + " elements, fewer than the " +
                     npukb::kern::num(last_len) + (config.isLastAxis ? " of the last column" : " of the last row"), file, line);
  }
  const std::uint64_t bytes = total * sizeof(T);
  hl_operand(api, "srcTensor", src, bytes, file, line);
  hl_operand(api, "dstTensor", dst, bytes, file, line);
  if (config.outputLastRow) hl_operand(api, "lastRowTensor", last, static_cast<std::uint64_t>(last_len) * sizeof(T), file, line);
  if (tmp != nullptr) {
    hl_tmp(api, *tmp, npukb_lib::CumSumMinTmpBytes(n, sizeof(T), config.isLastAxis),
           npukb_lib::CumSumMaxTmpBytes(m, n, sizeof(T), config.isLastAxis),
           {ub_range(src, bytes, "srcTensor"), ub_range(dst, bytes, "dstTensor"),
            ub_range(last, config.outputLastRow ? static_cast<std::uint64_t>(last_len) * sizeof(T) : 0, "lastRowTensor")},
           file, line);
  }
  const std::vector<T> in(src.ptr(), src.ptr() + total);
  std::vector<float> acc(config.isLastAxis ? 1 : n, 0.0f);
  T* d = dst.ptr();
  for (std::uint32_t i = 0; i < m; ++i) {
    if (config.isLastAxis) acc[0] = 0.0f;
    for (std::uint32_t j = 0; j < n; ++j) {
      float& a = acc[config.isLastAxis ? 0 : j];
      a += static_cast<float>(in[static_cast<std::uint64_t>(i) * n + j]);
      d[static_cast<std::uint64_t>(i) * n + j] = hl_out<T>(a);
    }
  }
  if (config.outputLastRow) {
    T* l = last.ptr();
    for (std::uint32_t k = 0; k < last_len; ++k) {
      l[k] = config.isLastAxis ? d[static_cast<std::uint64_t>(k) * n + (n - 1)] : d[static_cast<std::uint64_t>(m - 1) * n + k];
    }
  }
  const npukb::kern::Span sp = vspan(src, bytes), dp = vspan(dst, bytes);
  hl_cost(config.isLastAxis ? HlSeq{6, 0, 0} : HlSeq{1, 0, 0}, total, sizeof(T), sizeof(T) < 4, &sp, 1, &dp, 1);
}
}  // namespace sim

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   LocalTensor<std::uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "CumSum: unsupported data type (half, float)");
  sim::cumsum_run<T, config>(dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo, file, line);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const CumSumInfo& cumSumInfo) { NPUKB_CALLER;
  static_assert(NPUKB_HF, "CumSum: unsupported data type (half, float)");
  sim::cumsum_run<T, config>(dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo, file, line);
}

}  // namespace AscendC
