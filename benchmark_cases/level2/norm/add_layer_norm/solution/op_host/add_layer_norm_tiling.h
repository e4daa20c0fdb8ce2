#ifndef ADD_LAYER_NORM_TILING_H
#define ADD_LAYER_NORM_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AddLayerNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
