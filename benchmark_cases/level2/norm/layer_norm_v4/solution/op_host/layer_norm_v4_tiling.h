#ifndef LAYER_NORM_V4_TILING_H
#define LAYER_NORM_V4_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(LayerNormV4, L2bRowNormTilingData)
}  // namespace optiling
#endif
