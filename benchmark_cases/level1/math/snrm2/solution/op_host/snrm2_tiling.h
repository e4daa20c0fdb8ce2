#ifndef SNRM2_TILING_H
#define SNRM2_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Snrm2, L1ReduceTilingData)
}  // namespace optiling
#endif
