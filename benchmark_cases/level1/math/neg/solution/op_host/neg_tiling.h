#ifndef NEG_TILING_H
#define NEG_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Neg, L1EltTilingData)
}  // namespace optiling
#endif
