#ifndef EXPAND_V2_TILING_H
#define EXPAND_V2_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t EXPAND_MAX_RANK = 8;

BEGIN_TILING_DATA_DEF(ExpandV2TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rowDims);        // output dims before the last one
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, outDims);  // output dims (all but the last)
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, xStrides); // x element stride per output dim (0: broadcast)
    TILING_DATA_FIELD_DEF(uint32_t, rows);           // output rows = prod(outDims)
    TILING_DATA_FIELD_DEF(uint32_t, width);          // W: output last dim
    TILING_DATA_FIELD_DEF(uint32_t, lastBroadcast);  // 1: x's last dim is 1 (each row is one value)
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);     // cores taking rowsPerCore + 1 rows
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);    // rows per UB tile (1 when W > colTile)
    TILING_DATA_FIELD_DEF(uint32_t, colTile);        // columns per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ExpandV2, ExpandV2TilingData)
}  // namespace optiling
#endif
