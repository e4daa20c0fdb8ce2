#ifndef IS_INF_TILING_H
#define IS_INF_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(IsInf, L1EltTilingData)
}  // namespace optiling
#endif
