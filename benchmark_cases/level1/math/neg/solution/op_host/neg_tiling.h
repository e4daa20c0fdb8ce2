#ifndef NEG_TILING_H
#define NEG_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Neg, L1EltTilingData)
}  // namespace optiling
#endif
