#ifndef GROUP_NORM_SWISH_TILING_H
#define GROUP_NORM_SWISH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupNormSwishTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, groupsPerSample);  // G
    TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);       // Cg = C / G
    TILING_DATA_FIELD_DEF(uint32_t, channels);         // C
    TILING_DATA_FIELD_DEF(uint32_t, hw);               // elements per channel
    TILING_DATA_FIELD_DEF(uint32_t, groupLen);         // D = Cg * HW
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);       // cores that take groupsPerCore + 1 groups
    TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);    // groups of a small core
    TILING_DATA_FIELD_DEF(uint32_t, tileLen);          // elements per UB tile (multiple of 64)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);      // pass 2: whole channels per tile (0: chunked)
    TILING_DATA_FIELD_DEF(uint32_t, bufNum);           // queue depth (1 or 2)
    TILING_DATA_FIELD_DEF(uint32_t, activateSwish);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, swishScale);
    TILING_DATA_FIELD_DEF(float, invGroupLen);         // 1 / D
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupNormSwish, GroupNormSwishTilingData)
}  // namespace optiling
#endif
