#ifndef ARANGE_TILING_H
#define ARANGE_TILING_H
#include "l1_fill_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Arange, L1FillTilingData)
}  // namespace optiling
#endif
