// lib/normalization/deepnorm_tiling.h -- host helpers of the DeepNorm kernel API:
// GetDeepNormMaxMinTmpSize and GetDeepNormTilingInfo (DeepNormTiling, the fields of LayerNormTiling).
// srcShape is [B, S, H] (H 32-byte aligned, at most 2040), originSrcShape [B, S, originH] with originH
// in (0, H]. Both return false on a shape the API does not take (including the basic-block conditions
// when isBasicBlock: H a multiple of 64, B * S a multiple of 8, originH = H) or a work buffer below the
// minimum. Part of the ascendc-sim clean-room simulator; figures in npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace npukb_norm {
constexpr uint32_t kDeepNormMaxH = 2040;
inline bool DeepNormShapeOk(const Bsh& s, uint32_t type_size, bool basic) {
  if (s.empty() || (type_size != 2 && type_size != 4) || s.h * type_size % 32 != 0 || s.h > kDeepNormMaxH) return false;
  return !basic || (s.h % 64 == 0 && s.rows() % 8 == 0);
}
}  // namespace npukb_norm

namespace AscendC {

inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  if (!npukb_norm::DeepNormShapeOk(s, typeSize, isBasicBlock)) return false;
  minValue = npukb_lib::LayerNormRowBytes(s.h, typeSize, isReuseSource);
  maxValue = s.rows() * minValue;
  return true;
}

inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  const npukb_norm::Bsh o = npukb_norm::ReadBsh(originSrcShape);
  if (!npukb_norm::DeepNormShapeOk(s, typeSize, isBasicBlock)) return false;
  if (o.b != s.b || o.s != s.s || o.h == 0 || o.h > s.h || (isBasicBlock && o.h != s.h)) return false;
  if (stackBufferSize < npukb_lib::LayerNormRowBytes(s.h, typeSize, isReuseSource)) return false;
  npukb_norm::FillLayerNorm(s.b, s.s, s.h, o.h, stackBufferSize, typeSize, isReuseSource, tiling);
  return true;
}

inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& tiling) {
  AscendC::tiling::DeepNormTiling plain{};
  if (!GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, plain)) {
    return false;
  }
  npukb_norm::ToClass(plain, tiling);
  return true;
}

}  // namespace AscendC
