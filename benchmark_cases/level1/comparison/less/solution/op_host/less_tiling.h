#ifndef LESS_TILING_H
#define LESS_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Less, L1EltTilingData)
}  // namespace optiling
#endif
