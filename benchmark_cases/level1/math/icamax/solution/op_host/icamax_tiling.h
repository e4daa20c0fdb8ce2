#ifndef ICAMAX_TILING_H
#define ICAMAX_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Icamax, L1ReduceTilingData)
}  // namespace optiling
#endif
