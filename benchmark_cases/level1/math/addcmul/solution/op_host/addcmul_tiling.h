#ifndef ADDCMUL_TILING_H
#define ADDCMUL_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Addcmul, L1EltTilingData)
}  // namespace optiling
#endif
