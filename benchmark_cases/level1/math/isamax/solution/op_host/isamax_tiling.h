#ifndef ISAMAX_TILING_H
#define ISAMAX_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Isamax, L1ReduceTilingData)
}  // namespace optiling
#endif
