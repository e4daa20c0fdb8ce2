#ifndef MULS_TILING_H
#define MULS_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Muls, L1EltTilingData)
}  // namespace optiling
#endif
