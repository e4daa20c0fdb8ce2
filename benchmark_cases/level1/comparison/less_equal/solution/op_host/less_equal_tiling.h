#ifndef LESS_EQUAL_TILING_H
#define LESS_EQUAL_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(LessEqual, L1EltTilingData)
}  // namespace optiling
#endif
