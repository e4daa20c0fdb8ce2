#ifndef DEEP_NORM_TILING_H
#define DEEP_NORM_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(DeepNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
