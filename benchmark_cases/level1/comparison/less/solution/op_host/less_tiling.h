#ifndef LESS_TILING_H
#define LESS_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Less, L1EltTilingData)
}  // namespace optiling
#endif
