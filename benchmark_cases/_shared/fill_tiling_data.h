// fill_tiling_data.h -- tiling data of the level-1 tensor-creation solutions (fill_kernel.h, fill_host_tiling.h).
#ifndef FILL_TILING_DATA_H
#define FILL_TILING_DATA_H
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
#endif  // FILL_TILING_DATA_H
