#ifndef IS_FINITE_TILING_H
#define IS_FINITE_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(IsFinite, L1EltTilingData)
}  // namespace optiling
#endif
