#ifndef COS_MATH_TILING_H
#define COS_MATH_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(CosMath, L1EltTilingData)
}  // namespace optiling
#endif
