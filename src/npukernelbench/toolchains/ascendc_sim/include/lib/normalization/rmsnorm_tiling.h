// lib/normalization/rmsnorm_tiling.h -- host helpers of the RmsNorm kernel API:
// GetRmsNormMaxMinTmpSize and GetRmsNormTilingInfo (RmsNormTiling). srcShape is the 32-byte aligned
// [B, S, H], originSrcShape the original one. Both return false on a shape the API does not take (H not
// 32-byte aligned, an empty dim, B / S differing, original H outside (0, H], the basic-block conditions
// when isBasicBlock: H a multiple of 64 below 2048, B * S a multiple of 8, original H = H) or a work
// buffer below the minimum. Part of the ascendc-sim clean-room simulator; figures in
// npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace npukb_norm {
inline bool RmsNormShapeOk(const Bsh& s, uint32_t type_size, bool basic) {
  if (s.empty() || (type_size != 2 && type_size != 4) || s.h * type_size % 32 != 0) return false;
  return !basic || (s.h % 64 == 0 && s.h < 2048 && s.rows() % 8 == 0);
}
}  // namespace npukb_norm

namespace AscendC {

inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  if (!npukb_norm::RmsNormShapeOk(s, typeSize, isBasicBlock)) return false;
  minValue = npukb_lib::RmsNormRowBytes(s.h, typeSize);
  maxValue = s.rows() * minValue;
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  const npukb_norm::Bsh s = npukb_norm::ReadBsh(srcShape);
  const npukb_norm::Bsh o = npukb_norm::ReadBsh(originSrcShape);
  if (!npukb_norm::RmsNormShapeOk(s, typeSize, isBasicBlock)) return false;
  if (o.b != s.b || o.s != s.s || o.h == 0 || o.h > s.h || (isBasicBlock && o.h != s.h)) return false;
  if (stackBufferByteSize < npukb_lib::RmsNormRowBytes(s.h, typeSize)) return false;
  npukb_norm::FillRmsNorm(s.b, s.s, s.h, o.h, stackBufferByteSize, typeSize, tiling);
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  AscendC::tiling::RmsNormTiling plain{};
  if (!GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, plain, isBasicBlock)) return false;
  npukb_norm::ToClass(plain, tiling);
  return true;
}

}  // namespace AscendC
