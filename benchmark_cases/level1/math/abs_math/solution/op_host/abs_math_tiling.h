#ifndef ABS_MATH_TILING_H
#define ABS_MATH_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AbsMath, L1EltTilingData)
}  // namespace optiling
#endif
