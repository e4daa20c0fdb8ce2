#ifndef EYE_TILING_H
#define EYE_TILING_H
#include "fill_tiling_data.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Eye, L1FillTilingData)
}  // namespace optiling
#endif
