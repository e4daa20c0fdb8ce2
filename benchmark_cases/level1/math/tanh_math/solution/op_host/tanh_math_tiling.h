#ifndef TANH_MATH_TILING_H
#define TANH_MATH_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(TanhMath, L1EltTilingData)
}  // namespace optiling
#endif
