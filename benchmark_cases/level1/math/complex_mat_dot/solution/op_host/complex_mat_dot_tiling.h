#ifndef COMPLEX_MAT_DOT_TILING_H
#define COMPLEX_MAT_DOT_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ComplexMatDot, L1EltTilingData)
}  // namespace optiling
#endif
