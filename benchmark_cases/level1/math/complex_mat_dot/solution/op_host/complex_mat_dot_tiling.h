#ifndef COMPLEX_MAT_DOT_TILING_H
#define COMPLEX_MAT_DOT_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ComplexMatDot, L1EltTilingData)
}  // namespace optiling
#endif
