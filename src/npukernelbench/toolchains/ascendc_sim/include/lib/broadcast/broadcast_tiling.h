// lib/broadcast/broadcast_tiling.h -- host helper of the Broadcast kernel API: GetBroadCastMaxMinTmpSize.
// The shapes decide the case: one dim, or two dims broadcasting the first ([1, k] -> [m, k]) need no
// buffer; two dims broadcasting the second ([m, 1] -> [m, k]) need the brcb blocks (8 rows per pass at
// least, every row at most). Shapes of different ranks, or that do not broadcast, report 0. Part of the
// ascendc-sim clean-room simulator; figures in npukb_sim/transform_tmp_sizes.h.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/tensor.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/transform_tmp_sizes.h"
#include "tiling/platform/platform_ascendc.h"

namespace AscendC {

inline void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                                      const ge::Shape& dstShape, uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  const std::vector<uint32_t> s = npukb_lib::ShapeDims(srcShape), d = npukb_lib::ShapeDims(dstShape);
  maxValue = minValue = 0;
  if (s.size() != 2 || d.size() != 2 || s[0] != d[0] || s[1] != 1 || d[1] == 1) return;   // not [m, 1] -> [m, k]
  maxValue = npukb_lib::BroadcastTmpBytes(d[0], d[1], typeSize, true, true);
  minValue = npukb_lib::BroadcastTmpBytes(d[0], d[1], typeSize, true, false);
}

}  // namespace AscendC
