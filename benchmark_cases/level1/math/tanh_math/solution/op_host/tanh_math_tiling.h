#ifndef TANH_MATH_TILING_H
#define TANH_MATH_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(TanhMath, L1EltTilingData)
}  // namespace optiling
#endif
