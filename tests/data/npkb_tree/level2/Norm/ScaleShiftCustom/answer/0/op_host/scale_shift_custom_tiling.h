#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleShiftTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(float, shift);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleShiftCustom, ScaleShiftTilingData)
}  // namespace optiling
