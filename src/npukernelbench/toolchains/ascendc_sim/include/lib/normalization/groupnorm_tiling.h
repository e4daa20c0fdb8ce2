// lib/normalization/groupnorm_tiling.h -- host helpers of the GroupNorm kernel API:
// GetGroupNormMaxMinTmpSize and GetGroupNormNDTilingInfo (GroupNormTiling) over srcShape [N, C, H, W]
// and groupNum groups of C / groupNum channels. Part of the ascendc-sim clean-room simulator; figures
// in npukb_sim/norm_tmp_sizes.h.
#pragma once
#include <cstdint>

#include "graph/tensor.h"
#include "lib/normalization/norm_tilingdata.h"
#include "npukb_sim/norm_host_shape.h"
#include "npukb_sim/norm_tiling_fill.h"
#include "npukb_sim/norm_tmp_sizes.h"

namespace npukb_norm {
struct Nchw {
  uint32_t n = 0, c = 0, hw = 0;
};
inline Nchw ReadNchw(const ge::Shape& shape) {
  Nchw r;
  r.n = Dim(shape, 0);
  r.c = Dim(shape, 1);
  r.hw = shape.GetDimNum() > 2 ? Product(shape, 2, shape.GetDimNum()) : 1;
  return r;
}
}  // namespace npukb_norm

namespace AscendC {

inline void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const uint32_t groupNum, uint32_t& maxValue, uint32_t& minValue) {
  (void)typeSize;
  (void)isReuseSource;
  const npukb_norm::Nchw s = npukb_norm::ReadNchw(srcShape);
  const uint32_t d = groupNum == 0 ? 0 : s.c / groupNum;
  minValue = npukb_lib::GroupNormGroupBytes(d, s.hw);
  maxValue = (s.n * groupNum == 0 ? 1 : s.n * groupNum) * minValue;
}

inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum,
                                     AscendC::tiling::GroupNormTiling& tiling) {
  (void)isReuseSource;
  const npukb_norm::Nchw s = npukb_norm::ReadNchw(srcShape);
  npukb_norm::FillGroupNorm(s.n, s.c, s.hw, groupNum, stackBufferSize, typeSize, tiling);
}

inline void GetGroupNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, const uint32_t groupNum,
                                     optiling::GroupNormTiling& tiling) {
  AscendC::tiling::GroupNormTiling plain{};
  GetGroupNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, groupNum, plain);
  npukb_norm::ToClass(plain, tiling);
}

}  // namespace AscendC
