#ifndef ADD_RMS_NORM_QUANT_TILING_H
#define ADD_RMS_NORM_QUANT_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AddRmsNormQuant, L2bRowNormTilingData)
}  // namespace optiling
#endif
