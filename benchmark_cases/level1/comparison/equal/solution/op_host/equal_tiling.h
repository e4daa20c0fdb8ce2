#ifndef EQUAL_TILING_H
#define EQUAL_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Equal, L1EltTilingData)
}  // namespace optiling
#endif
