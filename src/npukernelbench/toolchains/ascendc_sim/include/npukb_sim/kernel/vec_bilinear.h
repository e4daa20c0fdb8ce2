// npukb_sim/kernel/vec_bilinear.h -- BilinearInterpolation (half): for each vertical repeat v and
// horizontal repeat h (iteration i = v * hRepeat + h), 8 source blocks are gathered from src0 at the
// byte offsets src0Offset[8i .. 8i+7], multiplied by src1[i] (repeatMode false) or block j by
// src1[8i + j] (repeatMode true), and the hRepeat products of a vertical repeat are added; the sum goes
// to dst + v * vROffset elements, block j at j * dstBlkStride blocks, under the vector mask (elements
// outside it keep dst). Each multiply and add rounds to half, as the Gatherb + Brcb + Mul + Add
// sequence the page describes. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_drivers.h"

namespace AscendC {
namespace sim {
template <typename T>
inline void bilinear_run(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<std::uint32_t>& src0Offset,
                         const LocalTensor<T>& src1, const std::uint64_t* bits, std::uint64_t cont, std::uint32_t hRepeat,
                         bool repeatMode, std::uint32_t dstBlkStride, std::uint32_t vROffset, std::uint32_t vRepeat,
                         const LocalTensor<std::uint8_t>& tmp, const char* file, int line) {
  const char* api = "BilinearInterpolation";
  if (hRepeat < 1 || hRepeat > 255 || vRepeat < 1 || vRepeat > 255) {
    npukb::violation(api, "hRepeat " + npukb::kern::num(hRepeat) + " and vRepeat " + npukb::kern::num(vRepeat) +
                     " must be in [1, 255]", file, line);
  }
  if (vROffset < 128 || vROffset >= 65535 || (vROffset * sizeof(T)) % 32 != 0) {
    npukb::violation(api, "vROffset " + npukb::kern::num(vROffset) + " must be in [128, 65535) and a whole number of 32-byte "
                     "blocks", file, line);
  }
  const std::uint32_t iters = hRepeat * vRepeat;
  const std::uint64_t s0 = static_cast<std::uint64_t>(src0.GetSize()) * sizeof(T);
  const std::uint64_t s1n = repeatMode ? static_cast<std::uint64_t>(iters) * 8 : iters;
  check_local(api, "src0", src0, 0, true, file, line);
  check_local(api, "src0Offset", src0Offset, static_cast<std::uint64_t>(iters) * 8 * 4, true, file, line);
  check_local(api, "src1", src1, s1n * sizeof(T), true, file, line);
  check_local(api, "sharedTmpBuffer", tmp, static_cast<std::uint64_t>(src0.GetSize()) * 32 + static_cast<std::uint64_t>(src1.GetSize()) * 32,
              true, file, line);
  if (overlaps(src0, s0, src1, s1n * sizeof(T)) || overlaps(src0Offset, iters * 32ull, src0, s0) ||
      overlaps(src0Offset, iters * 32ull, src1, s1n * sizeof(T))) {
    npukb::violation(api, "src0, src1 and src0Offset may not overlap", file, line);
  }
  if (vRepeat > 1 && vROffset < (7u * dstBlkStride + 1) * (32 / sizeof(T))) {
    npukb::violation(api, "the destinations of two vertical repeats overlap (vROffset too small for dstBlkStride)", file, line);
  }
  const Plan pl = make_plan(api, true, bits, cont, 1, 256 / sizeof(T), file, line);
  const std::uint32_t epb = 32 / sizeof(T);
  const std::uint64_t ed = (static_cast<std::uint64_t>(vRepeat - 1) * vROffset + (7ull * dstBlkStride + 1) * epb) * sizeof(T);
  check_local(api, "dst", dst, ed, true, file, line);
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src0.ptr());
  for (std::uint32_t v = 0; v < vRepeat; ++v) {
    std::vector<T> acc(pl.per_rep, T(0));
    for (std::uint32_t h = 0; h < hRepeat; ++h) {
      const std::uint32_t i = v * hRepeat + h;
      for (std::uint32_t j = 0; j < 8; ++j) {
        const std::uint64_t o = src0Offset.ptr()[i * 8 + j];
        if (o % 32 != 0 || o + 32 > s0) {
          npukb::violation(api, "src0Offset[" + npukb::kern::num(i * 8 + j) + "] = " + npukb::kern::num(static_cast<long long>(o)) +
                           " is not 32-byte aligned or lies outside src0", file, line);
        }
        const T w = src1.ptr()[repeatMode ? i * 8 + j : i];
        for (std::uint32_t e = 0; e < epb; ++e) {
          const T prod = static_cast<T>(ld<T>(s + o + e * sizeof(T)) * w);
          acc[j * epb + e] = h == 0 ? prod : static_cast<T>(acc[j * epb + e] + prod);
        }
      }
    }
    T* d = dst.ptr() + static_cast<std::uint64_t>(v) * vROffset;
    for (std::uint32_t k = 0; k < pl.per_rep; ++k) {
      if (pl.bit(k)) d[static_cast<std::uint64_t>(k / epb) * dstBlkStride * epb + k % epb] = acc[k];
    }
  }
  const npukb::kern::Span sp[2] = {vspan(src0, s0), vspan(src1, s1n * sizeof(T))};
  const npukb::kern::Span dp = vspan(dst, ed);
  // Gatherb + Brcb + Mul per iteration, one Add per horizontal step
  vec_cost(kCostSimple * 4, iters * 3 + vRepeat * (hRepeat - 1), sp, 2, &dp, 1);
}
}  // namespace sim

template <typename T>
inline void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<std::uint32_t>& src0Offset,
                                  const LocalTensor<T>& src1, std::uint64_t mask[], std::uint8_t hRepeat, bool repeatMode,
                                  std::uint16_t dstBlkStride, std::uint16_t vROffset, std::uint8_t vRepeat,
                                  const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    BilinearInterpolation<PrimT<T>>(sim::lite(dst), sim::lite(src0), src0Offset, sim::lite(src1), mask, hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer);
  } else {
    static_assert(std::is_same_v<T, half>, "BilinearInterpolation: supports half only");
    sim::bilinear_run(dst, src0, src0Offset, src1, mask, 0, hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer,
                      file, line);
  }
}
template <typename T>
inline void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<std::uint32_t>& src0Offset,
                                  const LocalTensor<T>& src1, std::uint64_t mask, std::uint8_t hRepeat, bool repeatMode,
                                  std::uint16_t dstBlkStride, std::uint16_t vROffset, std::uint8_t vRepeat,
                                  const LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    BilinearInterpolation<PrimT<T>>(sim::lite(dst), sim::lite(src0), src0Offset, sim::lite(src1), mask, hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat, sharedTmpBuffer);
  } else {
    static_assert(std::is_same_v<T, half>, "BilinearInterpolation: supports half only");
    sim::bilinear_run(dst, src0, src0Offset, src1, nullptr, mask, hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat,
                      sharedTmpBuffer, file, line);
  }
}

}  // namespace AscendC
