#ifndef MASKED_SELECT_V3_TILING_H
#define MASKED_SELECT_V3_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedSelectV3TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of x / mask
    TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);  // 256-element units per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra unit
    TILING_DATA_FIELD_DEF(uint32_t, tileElems);     // elements per UB tile (multiple of 256)
    TILING_DATA_FIELD_DEF(uint32_t, cacheBits);     // 1: a core's mask bits stay in UB between the passes
    TILING_DATA_FIELD_DEF(uint32_t, cacheBytes);    // size of that cache
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedSelectV3, MaskedSelectV3TilingData)
}  // namespace optiling
#endif
