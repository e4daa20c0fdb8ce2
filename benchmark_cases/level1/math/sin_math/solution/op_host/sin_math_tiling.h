#ifndef SIN_MATH_TILING_H
#define SIN_MATH_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(SinMath, L1EltTilingData)
}  // namespace optiling
#endif
