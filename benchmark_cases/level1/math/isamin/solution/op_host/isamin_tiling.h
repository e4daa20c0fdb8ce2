#ifndef ISAMIN_TILING_H
#define ISAMIN_TILING_H
#include "l1_reduce_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Isamin, L1ReduceTilingData)
}  // namespace optiling
#endif
