// lib/normalization/batchnorm_tiling.h -- host helpers of the BatchNorm kernel API:
// GetBatchNormMaxMinTmpSize and GetBatchNormNDTilingInfo (BatchNormTiling). srcShape is [B, S, H]
// (S * H 32-byte aligned), originSrcShape [originB, originS, originH]; the statistics run over the
// originB valid rows of each of the S * H feature columns. Both return false on a shape the API does not
// take (S * H not 32-byte aligned, an empty dim, originB above B, the basic-block conditions when
// isBasicBlock: originB a multiple of 8, S * H a multiple of 64 below 2048) or a work buffer below the
// minimum. Part of the ascendc-sim clean-room simulator; figures in npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace npukb_norm {
struct BatchShape {
  uint32_t b = 0, origin_b = 0, sh = 0;
};
inline bool ReadBatchShape(const ge::Shape& src, const ge::Shape& origin, uint32_t type_size, bool basic, BatchShape& r) {
  if (src.GetDimNum() < 2 || origin.GetDimNum() < 1) return false;
  r.b = Dim(src, 0);
  r.origin_b = Dim(origin, 0);
  r.sh = Product(src, 1, src.GetDimNum());
  if (r.b == 0 || r.sh == 0 || r.origin_b == 0 || r.origin_b > r.b) return false;
  if ((type_size != 2 && type_size != 4) || r.sh * type_size % 32 != 0) return false;
  return !basic || (r.origin_b % 8 == 0 && r.sh % 64 == 0 && r.sh < 2048);
}
}  // namespace npukb_norm

namespace AscendC {

inline bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& originSrcShape, const uint32_t typeSize,
                                      const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue,
                                      const bool isBasicBlock = false) {
  (void)isReuseSource;
  npukb_norm::BatchShape s;
  if (!npukb_norm::ReadBatchShape(srcShape, originSrcShape, typeSize, isBasicBlock, s)) return false;
  minValue = npukb_lib::BatchNormColumnBytes(s.b) * npukb_lib::BatchNormMinColumns(s.sh, typeSize);
  maxValue = npukb_lib::BatchNormColumnBytes(s.b) * s.sh;
  return true;
}

inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize, const bool isReuseSource,
                                     AscendC::tiling::BatchNormTiling& tilling, const bool isBasicBlock = false) {
  (void)isReuseSource;
  npukb_norm::BatchShape s;
  if (!npukb_norm::ReadBatchShape(srcShape, originSrcShape, typeSize, isBasicBlock, s)) return false;
  if (stackBufferByteSize < npukb_lib::BatchNormColumnBytes(s.b) * npukb_lib::BatchNormMinColumns(s.sh, typeSize)) {
    return false;
  }
  npukb_norm::FillBatchNorm(s.b, s.origin_b, s.sh, stackBufferByteSize, typeSize, tilling);
  return true;
}

inline bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize, const bool isReuseSource,
                                     optiling::BatchNormTiling& tilling, const bool isBasicBlock = false) {
  AscendC::tiling::BatchNormTiling plain{};
  if (!GetBatchNormNDTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, isReuseSource, plain,
                                isBasicBlock)) {
    return false;
  }
  npukb_norm::ToClass(plain, tilling);
  return true;
}

}  // namespace AscendC
