// l1_fill_tiling.h -- tiling data of the level-1 tensor-creation solutions (l1_fill.h, l1_fill_host.h).
#ifndef L1_FILL_TILING_H
#define L1_FILL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L1FillTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // output elements
    TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);  // 256-element units per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra unit
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
    TILING_DATA_FIELD_DEF(uint32_t, rows);          // Eye: matrix rows
    TILING_DATA_FIELD_DEF(uint32_t, cols);          // Eye: matrix columns
END_TILING_DATA_DEF;
}  // namespace optiling
#endif  // L1_FILL_TILING_H
