#ifndef MUL_MUL_REDUCE_MEAN_D_TWICE_TILING_H
#define MUL_MUL_REDUCE_MEAN_D_TWICE_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(MulMulReduceMeanDTwice, L2bRowNormTilingData)
}  // namespace optiling
#endif
