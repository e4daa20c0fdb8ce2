#ifndef LERP_TILING_H
#define LERP_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Lerp, L1EltTilingData)
}  // namespace optiling
#endif
