#ifndef UNALIGN_ADD_TILING_H
#define UNALIGN_ADD_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(UnalignAdd, L1EltTilingData)
}  // namespace optiling
#endif
