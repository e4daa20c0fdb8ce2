#ifndef ARANGE_TILING_H
#define ARANGE_TILING_H
#include "fill_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Arange, L1FillTilingData)
}  // namespace optiling
#endif
