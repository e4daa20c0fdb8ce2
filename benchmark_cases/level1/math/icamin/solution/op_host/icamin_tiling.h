#ifndef ICAMIN_TILING_H
#define ICAMIN_TILING_H
#include "reduce_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Icamin, L1ReduceTilingData)
}  // namespace optiling
#endif
