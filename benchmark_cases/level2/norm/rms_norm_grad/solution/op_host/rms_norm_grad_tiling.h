#ifndef RMS_NORM_GRAD_TILING_H
#define RMS_NORM_GRAD_TILING_H
#include "norm_grad_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(RmsNormGrad, L2bRowNormTilingData)
}  // namespace optiling
#endif
