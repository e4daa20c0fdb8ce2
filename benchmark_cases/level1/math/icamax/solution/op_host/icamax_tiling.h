#ifndef ICAMAX_TILING_H
#define ICAMAX_TILING_H
#include "l1_reduce_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Icamax, L1ReduceTilingData)
}  // namespace optiling
#endif
