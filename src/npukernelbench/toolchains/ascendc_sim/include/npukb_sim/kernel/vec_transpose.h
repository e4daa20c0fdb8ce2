// npukb_sim/kernel/vec_transpose.h -- Transpose: one 16x16 matrix of 2-byte elements (dst may be src),
// and the enhanced form with TransposeParamsExt: TRANSPOSE_ND2ND_B16 (the same 16x16 transpose of
// uint16_t), TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW ([N,C,H,W] <-> [N,H,W,C]; H * W elements must
// be whole 32-byte blocks; dst may not overlap src; sharedTmpBuffer of the documented size; a zero
// size is a no-op), TRANSPOSE_TYPE_NONE (no-op). The other TransposeType values are documented as not
// supported. TransDataTo5HD is in trans_data.h. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "npukb_sim/kernel/vec_drivers.h"

namespace AscendC {

struct TransposeParamsExt {
  TransposeParamsExt() {}
  TransposeParamsExt(const std::uint16_t nSizeIn, const std::uint16_t cSizeIn, const std::uint16_t hSizeIn, const std::uint16_t wSizeIn,
                     const TransposeType transposeTypeIn)
      : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
  std::uint16_t nSize = 0;
  std::uint16_t cSize = 0;
  std::uint16_t hSize = 0;
  std::uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

namespace sim {
template <typename T>
inline void transpose_16x16(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src, const char* file, int line) {
  check_local(api, "dst", dst, 512, true, file, line);
  check_local(api, "src", src, 512, true, file, line);
  T tmp[256];
  for (int i = 0; i < 16; ++i) for (int j = 0; j < 16; ++j) tmp[j * 16 + i] = src.ptr()[i * 16 + j];
  std::memcpy(dst.ptr(), tmp, sizeof(tmp));
  const npukb::kern::Span sp = vspan(src, 512), dp = vspan(dst, 512);
  vec_cost(kCostSimple, 2, &sp, 1, &dp, 1);
}

template <typename T>
inline void transpose_nchw(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& tmp,
                           const TransposeParamsExt& p, bool to_nhwc, const char* file, int line) {
  const char* api = "Transpose";
  const std::uint64_t n = p.nSize, c = p.cSize, hw = static_cast<std::uint64_t>(p.hSize) * p.wSize;
  if (c > 4095 || hw > 4095) {
    npukb::violation(api, "cSize " + npukb::kern::num(static_cast<long long>(c)) + " and hSize * wSize " +
                     npukb::kern::num(static_cast<long long>(hw)) + " must each be at most 4095", file, line);
  }
  if (hw * sizeof(T) % 32 != 0) {
    npukb::violation(api, "hSize * wSize * sizeof(T) = " + npukb::kern::num(static_cast<long long>(hw * sizeof(T))) +
                     " bytes is not a whole number of 32-byte blocks", file, line);
  }
  if (n == 0 || c == 0 || hw == 0) return;
  const std::uint64_t bytes = n * c * hw * sizeof(T);
  const std::uint64_t h0 = sizeof(T) == 1 ? 32 : 16, w0 = 32 / sizeof(T);
  const std::uint64_t need = (to_nhwc ? (c + 2) : (c * 2 + 1)) * h0 * w0 * sizeof(T);
  check_local(api, "dst", dst, bytes, true, file, line);
  check_local(api, "src", src, bytes, true, file, line);
  check_local(api, "sharedTmpBuffer", tmp, need, true, file, line);
  forbid_overlap(api, dst, bytes, src, bytes, "src", file, line);
  const T* s = src.ptr();
  T* d = dst.ptr();
  for (std::uint64_t in = 0; in < n; ++in)
    for (std::uint64_t ic = 0; ic < c; ++ic)
      for (std::uint64_t i = 0; i < hw; ++i) {
        const std::uint64_t nchw = (in * c + ic) * hw + i, nhwc = (in * hw + i) * c + ic;
        if (to_nhwc) d[nhwc] = s[nchw];
        else d[nchw] = s[nhwc];
      }
  const npukb::kern::Span sp = vspan(src, bytes), dp[2] = {vspan(dst, bytes), vspan(tmp, need)};
  vec_cost(kCostSimple * 2, static_cast<std::uint32_t>((bytes + 511) / 512), &sp, 1, dp, 2);
}
}  // namespace sim

// ---- Transpose: one 16x16 matrix of 2-byte elements ---------------------------------------------
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Transpose<PrimT<T>>(sim::lite(dst), sim::lite(src));
  } else {
    static_assert(sim::one_of<T, half, std::int16_t, std::uint16_t>, "Transpose (16x16): supports half, int16_t, uint16_t");
    sim::transpose_16x16("Transpose", dst, src, file, line);
  }
}

// ---- Transpose with TransposeParamsExt ------------------------------------------------------------
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& sharedTmpBuffer,
                      const TransposeParamsExt& transposeParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Transpose<PrimT<T>>(sim::lite(dst), sim::lite(src), sharedTmpBuffer, transposeParams);
  } else {
    static_assert(sim::one_of<T, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, half, std::int32_t, std::uint32_t, float>,
                  "Transpose: unsupported data type (int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float)");
    switch (transposeParams.transposeType) {
      case TransposeType::TRANSPOSE_TYPE_NONE:
        return;
      case TransposeType::TRANSPOSE_ND2ND_B16:
        if constexpr (std::is_same_v<T, std::uint16_t>) {
          if (transposeParams.hSize != 16 || transposeParams.wSize != 16) {
            npukb::violation("Transpose", "TRANSPOSE_ND2ND_B16 needs hSize = wSize = 16", file, line);
          }
          sim::transpose_16x16("Transpose", dst, src, file, line);
        } else {
          npukb::violation("Transpose", "TRANSPOSE_ND2ND_B16 supports uint16_t only", file, line);
        }
        return;
      case TransposeType::TRANSPOSE_NCHW2NHWC:
        sim::transpose_nchw(dst, src, sharedTmpBuffer, transposeParams, true, file, line);
        return;
      case TransposeType::TRANSPOSE_NHWC2NCHW:
        sim::transpose_nchw(dst, src, sharedTmpBuffer, transposeParams, false, file, line);
        return;
      default:
        npukb::violation("Transpose", "transposeType " + npukb::kern::num(static_cast<int>(transposeParams.transposeType)) +
                         " is not supported (TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW, TRANSPOSE_TYPE_NONE)",
                         file, line);
    }
  }
}

}  // namespace AscendC
