#ifndef PRE_LAYER_NORM_TILING_H
#define PRE_LAYER_NORM_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(PreLayerNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
