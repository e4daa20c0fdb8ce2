#ifndef MULS_TILING_H
#define MULS_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Muls, L1EltTilingData)
}  // namespace optiling
#endif
