// lib/normalization/layernorm_tiling.h -- host helpers of the LayerNorm kernel API, both interface
// forms: GetLayerNormMaxMinTmpSize and GetLayerNormNDTilingInfo (and the deprecated
// GetLayerNormNDTillingInfo) for the [B, S, H] form with mean / variance outputs (LayerNormTiling,
// srcShape {B, S, storageH, originH}) and for the [A, R] form with mean / rstd outputs
// (LayerNormSeparateTiling, srcShape {A, R}). Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/norm_tmp_sizes.h, fields in npukb_sim/norm_tiling_fill.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

// [B, S, H] form: one row per pass at least, all B * S rows at most.
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  minValue = npukb_lib::LayerNormRowBytes(s.h, typeSize, isReuseSource);
  maxValue = (s.rows() == 0 ? 1 : s.rows()) * minValue;
}

// [A, R] form (isComputeRstd selects the rstd interface; isOnlyOutput is documented as false only).
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
  (void)isReuseSource;
  (void)isComputeRstd;
  (void)isOnlyOutput;
  uint32_t a = 0, r = 0;
  npukb_norm::ReadRows(srcShape, a, r);
  minValue = npukb_lib::LayerNormRstdRowBytes(r, typeSize);
  maxValue = (a == 0 ? 1 : a) * minValue;
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, AscendC::tiling::LayerNormTiling& tiling) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  npukb_norm::FillLayerNorm(s.b, s.s, s.h, s.origin_h, stackBufferSize, typeSize, isReuseSource, tiling);
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, optiling::LayerNormTiling& tiling) {
  AscendC::tiling::LayerNormTiling plain{};
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, plain);
  npukb_norm::ToClass(plain, tiling);
}

// The deprecated spelling of the same function.
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                      const bool isReuseSource, optiling::LayerNormTiling& tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling) {
  (void)isReuseSource;
  (void)isComputeRstd;
  uint32_t a = 0, r = 0;
  npukb_norm::ReadRows(srcShape, a, r);
  npukb_norm::FillLayerNormSeparate(a, r, stackBufferSize, typeSize, tiling);
}

inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const bool isComputeRstd,
                                     optiling::LayerNormSeparateTiling& tiling) {
  AscendC::tiling::LayerNormSeparateTiling plain{};
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, isComputeRstd, plain);
  npukb_norm::ToClass(plain, tiling);
}

}  // namespace AscendC
