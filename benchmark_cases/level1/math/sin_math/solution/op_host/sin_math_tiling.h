#ifndef SIN_MATH_TILING_H
#define SIN_MATH_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(SinMath, L1EltTilingData)
}  // namespace optiling
#endif
