#ifndef NON_FINITE_CHECK_OP_TILING_H
#define NON_FINITE_CHECK_OP_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(NonFiniteCheckOp, L1ReduceTilingData)
}  // namespace optiling
#endif
