#ifndef EYE_TILING_H
#define EYE_TILING_H
#include "l1_fill_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Eye, L1FillTilingData)
}  // namespace optiling
#endif
