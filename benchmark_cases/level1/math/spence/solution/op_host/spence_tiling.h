#ifndef SPENCE_TILING_H
#define SPENCE_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Spence, L1EltTilingData)
}  // namespace optiling
#endif
