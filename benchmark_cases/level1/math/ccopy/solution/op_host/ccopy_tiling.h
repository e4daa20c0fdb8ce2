#ifndef CCOPY_TILING_H
#define CCOPY_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Ccopy, L1EltTilingData)
}  // namespace optiling
#endif
