#ifndef SPENCE_TILING_H
#define SPENCE_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Spence, L1EltTilingData)
}  // namespace optiling
#endif
