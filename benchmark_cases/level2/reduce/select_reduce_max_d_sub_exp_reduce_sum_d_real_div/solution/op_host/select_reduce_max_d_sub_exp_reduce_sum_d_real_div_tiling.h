#ifndef SELECT_REDUCE_MAX_D_SUB_EXP_REDUCE_SUM_D_REAL_DIV_TILING_H
#define SELECT_REDUCE_MAX_D_SUB_EXP_REDUCE_SUM_D_REAL_DIV_TILING_H
#include "row_norm_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(SelectReduceMaxDSubExpReduceSumDRealDiv, L2bRowNormTilingData)
}  // namespace optiling
#endif
