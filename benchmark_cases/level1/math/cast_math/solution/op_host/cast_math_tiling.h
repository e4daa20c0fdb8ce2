#ifndef CAST_MATH_TILING_H
#define CAST_MATH_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(CastMath, L1EltTilingData)
}  // namespace optiling
#endif
