#ifndef ISAMAX_TILING_H
#define ISAMAX_TILING_H
#include "l1_reduce_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Isamax, L1ReduceTilingData)
}  // namespace optiling
#endif
