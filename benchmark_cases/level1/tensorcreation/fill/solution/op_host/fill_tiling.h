#ifndef FILL_TILING_H
#define FILL_TILING_H
#include "fill_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Fill, L1FillTilingData)
}  // namespace optiling
#endif
