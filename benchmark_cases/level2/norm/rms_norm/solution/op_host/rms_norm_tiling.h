#ifndef RMS_NORM_TILING_H
#define RMS_NORM_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(RmsNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
