#ifndef UNALIGN_ADD_TILING_H
#define UNALIGN_ADD_TILING_H
#include "l1_elementwise_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(UnalignAdd, L1EltTilingData)
}  // namespace optiling
#endif
