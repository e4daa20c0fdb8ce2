#ifndef LERP_TILING_H
#define LERP_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Lerp, L1EltTilingData)
}  // namespace optiling
#endif
