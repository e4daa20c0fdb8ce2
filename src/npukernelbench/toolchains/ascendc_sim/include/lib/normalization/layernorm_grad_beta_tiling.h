// lib/normalization/layernorm_grad_beta_tiling.h -- host helpers of the LayerNormGradBeta kernel API:
// GetLayerNormGradBetaMaxMinTmpSize and GetLayerNormGradBetaNDTilingInfo (LayerNormGradBetaTiling).
// srcShape is inputDy's {B, S, storageH, originH}; stackBufferSize is in elements of typeSize bytes, as
// documented. Part of the ascendc-sim clean-room simulator; figures in npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

inline void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  const uint32_t fixed = npukb_lib::LayerNormGradBetaFixedBytes(s.h), row = npukb_lib::LayerNormGradBetaRowBytes(s.h, typeSize);
  minValue = fixed + row;
  maxValue = fixed + (s.rows() == 0 ? 1 : s.rows()) * row;
}

inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  (void)isReuseSource;
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  npukb_norm::FillLayerNormGradBeta(s.b, s.s, s.h, s.origin_h, stackBufferSize, typeSize, tiling);
}

inline void GetLayerNormGradBetaNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
  AscendC::tiling::LayerNormGradBetaTiling plain{};
  GetLayerNormGradBetaNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, plain);
  npukb_norm::ToClass(plain, tiling);
}

}  // namespace AscendC
