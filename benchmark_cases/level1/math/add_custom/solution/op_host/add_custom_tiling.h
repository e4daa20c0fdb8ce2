#ifndef ADD_CUSTOM_TILING_H
#define ADD_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);     // cores that take one extra block
    TILING_DATA_FIELD_DEF(uint32_t, blocksPerCore);  // 32-byte blocks per small core
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);     // elements per UB tile
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);    // elements overall
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}  // namespace optiling
#endif
