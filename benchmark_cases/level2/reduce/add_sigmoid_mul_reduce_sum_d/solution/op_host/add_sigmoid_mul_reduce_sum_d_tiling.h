#ifndef ADD_SIGMOID_MUL_REDUCE_SUM_D_TILING_H
#define ADD_SIGMOID_MUL_REDUCE_SUM_D_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(AddSigmoidMulReduceSumD, L2bRowNormTilingData)
}  // namespace optiling
#endif
