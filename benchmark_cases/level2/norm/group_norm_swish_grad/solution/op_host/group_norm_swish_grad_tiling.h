#ifndef GROUP_NORM_SWISH_GRAD_TILING_H
#define GROUP_NORM_SWISH_GRAD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupNormSwishGradTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, groupsPerSample);  // G
    TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);       // Cg
    TILING_DATA_FIELD_DEF(uint32_t, channels);         // C
    TILING_DATA_FIELD_DEF(uint32_t, hw);               // elements per channel
    TILING_DATA_FIELD_DEF(uint32_t, groupLen);         // D = Cg * HW
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, tileLen);          // elements per UB tile (multiple of 64)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);      // whole channels per tile (0: chunked channels)
    TILING_DATA_FIELD_DEF(uint32_t, bufNum);
    TILING_DATA_FIELD_DEF(float, swishScale);
    TILING_DATA_FIELD_DEF(float, invGroupLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupNormSwishGrad, GroupNormSwishGradTilingData)
}  // namespace optiling
#endif
