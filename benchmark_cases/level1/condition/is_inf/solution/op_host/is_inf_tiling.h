#ifndef IS_INF_TILING_H
#define IS_INF_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(IsInf, L1EltTilingData)
}  // namespace optiling
#endif
