#ifndef RSQRT_TILING_H
#define RSQRT_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Rsqrt, L1EltTilingData)
}  // namespace optiling
#endif
