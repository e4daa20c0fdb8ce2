#ifndef ABS_MATH_TILING_H
#define ABS_MATH_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AbsMath, L1EltTilingData)
}  // namespace optiling
#endif
