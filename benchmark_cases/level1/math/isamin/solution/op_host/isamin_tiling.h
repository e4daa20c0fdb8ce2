#ifndef ISAMIN_TILING_H
#define ISAMIN_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Isamin, L1ReduceTilingData)
}  // namespace optiling
#endif
