#ifndef ADD_LAYER_NORM_GRAD_TILING_H
#define ADD_LAYER_NORM_GRAD_TILING_H
#include "norm_grad_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AddLayerNormGrad, L2bRowNormTilingData)
}  // namespace optiling
#endif
