#ifndef ADD_RMS_NORM_TILING_H
#define ADD_RMS_NORM_TILING_H
#include "l2b_rownorm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AddRmsNorm, L2bRowNormTilingData)
}  // namespace optiling
#endif
