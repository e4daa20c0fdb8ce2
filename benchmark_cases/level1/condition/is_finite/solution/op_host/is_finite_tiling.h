#ifndef IS_FINITE_TILING_H
#define IS_FINITE_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(IsFinite, L1EltTilingData)
}  // namespace optiling
#endif
