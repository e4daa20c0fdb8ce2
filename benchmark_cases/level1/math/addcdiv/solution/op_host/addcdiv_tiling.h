#ifndef ADDCDIV_TILING_H
#define ADDCDIV_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Addcdiv, L1EltTilingData)
}  // namespace optiling
#endif
