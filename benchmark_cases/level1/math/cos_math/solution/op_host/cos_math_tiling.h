#ifndef COS_MATH_TILING_H
#define COS_MATH_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(CosMath, L1EltTilingData)
}  // namespace optiling
#endif
