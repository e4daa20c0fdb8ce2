#ifndef CLIP_BY_VALUE_TILING_H
#define CLIP_BY_VALUE_TILING_H
#include "elementwise_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ClipByValue, L1EltTilingData)
}  // namespace optiling
#endif
