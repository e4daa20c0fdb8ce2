#ifndef EQUAL_TILING_H
#define EQUAL_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Equal, L1EltTilingData)
}  // namespace optiling
#endif
