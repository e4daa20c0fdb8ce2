#ifndef SQRT_TILING_H
#define SQRT_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Sqrt, L1EltTilingData)
}  // namespace optiling
#endif
