#ifndef INPLACE_ADD_LAYER_NORM_TILING_H
#define INPLACE_ADD_LAYER_NORM_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(InplaceAddLayerNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
