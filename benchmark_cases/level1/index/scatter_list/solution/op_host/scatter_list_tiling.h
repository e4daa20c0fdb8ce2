#ifndef SCATTER_LIST_TILING_H
#define SCATTER_LIST_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScatterListTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);         // B
    TILING_DATA_FIELD_DEF(uint32_t, seqLen);        // S, rows per batch of every var tensor
    TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // D
    TILING_DATA_FIELD_DEF(uint32_t, updateRows);    // U
    TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);  // (tensor, batch) items per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra item
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScatterList, ScatterListTilingData)
}  // namespace optiling
#endif
