// lib/normalization/layernorm_grad_tiling.h -- host helpers of the LayerNormGrad kernel API:
// GetLayerNormGradMaxMinTmpSize and GetLayerNormGradNDTilingInfo (LayerNormGradTiling). srcShape is
// inputDy's {B, S, storageH, originH}; stackBufferSize is in elements of typeSize bytes, as documented.
// Part of the ascendc-sim clean-room simulator; figures in npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace AscendC {

inline void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                          uint32_t& maxValue, uint32_t& minValue) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  minValue = npukb_lib::LayerNormGradRowBytes(s.h, typeSize, isReuseSource);
  maxValue = (s.rows() == 0 ? 1 : s.rows()) * minValue;
}

inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                         const bool isReuseSource, AscendC::tiling::LayerNormGradTiling& tiling) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  npukb_norm::FillLayerNormGrad(s.b, s.s, s.h, s.origin_h, stackBufferSize, typeSize, isReuseSource, tiling);
}

inline void GetLayerNormGradNDTilingInfo(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                         const bool isReuseSource, optiling::LayerNormGradTiling& tiling) {
  AscendC::tiling::LayerNormGradTiling plain{};
  GetLayerNormGradNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, plain);
  npukb_norm::ToClass(plain, tiling);
}

}  // namespace AscendC
