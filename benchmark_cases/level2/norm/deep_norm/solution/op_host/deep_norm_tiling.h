#ifndef DEEP_NORM_TILING_H
#define DEEP_NORM_TILING_H
#include "l2b_rownorm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(DeepNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
