#ifndef DEEP_NORM_GRAD_TILING_H
#define DEEP_NORM_GRAD_TILING_H
#include "norm_grad_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(DeepNormGrad, L2bRowNormTilingData)
}  // namespace optiling
#endif
