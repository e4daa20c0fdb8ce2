#ifndef FILL_TILING_H
#define FILL_TILING_H
#include "l1_fill_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Fill, L1FillTilingData)
}  // namespace optiling
#endif
