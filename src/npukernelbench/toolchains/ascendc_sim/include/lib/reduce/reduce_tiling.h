// lib/reduce/reduce_tiling.h -- host helpers of the pattern reductions: GetReduceSumMaxMinTmpSize,
// GetReduceMeanMaxMinTmpSize, GetReduceMaxMaxMinTmpSize, GetReduceMinMaxMinTmpSize,
// GetReduceAnyMaxMinTmpSize, GetReduceAllMaxMinTmpSize and GetReduceProdMaxMinTmpSize. srcShape is the
// real 2-D shape {d0, d1} (rows stored 32-byte aligned), pattern AR or RA. The maximum equals the
// minimum, as documented. A shape that is not 2-D, a pattern other than AR / RA or srcInnerPad = false
// (the only value the A2 / A3 series take is true) report 0. Part of the ascendc-sim clean-room
// simulator; figures in npukb_sim/reduce_tmp_sizes.h.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/types.h"
#include "npukb_sim/lib_host_shape.h"
#include "npukb_sim/reduce_pattern.h"
#include "npukb_sim/reduce_tmp_sizes.h"

namespace npukb_lib {
inline void ReducePatternSizes(const ge::Shape& srcShape, ge::DataType dataType, AscendC::ReducePattern pattern,
                               bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  const std::vector<uint32_t> d = ShapeDims(srcShape);
  const int ts = ge::GetSizeByDataType(dataType);
  const bool ar = pattern == AscendC::ReducePattern::AR;
  if (d.size() != 2 || d[0] == 0 || d[1] == 0 || ts <= 0 || !isSrcInnerPad ||
      (!ar && pattern != AscendC::ReducePattern::RA)) {
    maxValue = minValue = 0;
    return;
  }
  minValue = ReducePatternTmpBytes(d[0], d[1], static_cast<uint32_t>(ts), ar, isReuseSource);
  maxValue = minValue;
}
}  // namespace npukb_lib

namespace AscendC {

#define NPUKB_REDUCE_TMP_SIZE(NAME)                                                                                   \
  inline void NAME(const ge::Shape& srcShape, const ge::DataType dataType, ReducePattern pattern, bool isSrcInnerPad, \
                   bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {                                       \
    npukb_lib::ReducePatternSizes(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue);     \
  }
NPUKB_REDUCE_TMP_SIZE(GetReduceSumMaxMinTmpSize)
NPUKB_REDUCE_TMP_SIZE(GetReduceMeanMaxMinTmpSize)
NPUKB_REDUCE_TMP_SIZE(GetReduceMaxMaxMinTmpSize)
NPUKB_REDUCE_TMP_SIZE(GetReduceMinMaxMinTmpSize)
NPUKB_REDUCE_TMP_SIZE(GetReduceAnyMaxMinTmpSize)
NPUKB_REDUCE_TMP_SIZE(GetReduceAllMaxMinTmpSize)
NPUKB_REDUCE_TMP_SIZE(GetReduceProdMaxMinTmpSize)
#undef NPUKB_REDUCE_TMP_SIZE

}  // namespace AscendC
