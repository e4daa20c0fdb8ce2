#ifndef ADDCMUL_TILING_H
#define ADDCMUL_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Addcmul, L1EltTilingData)
}  // namespace optiling
#endif
