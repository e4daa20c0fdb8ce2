#ifndef FEEDS_REPEAT_TILING_H
#define FEEDS_REPEAT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FeedsRepeatTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, feedRows);    // F: rows of feeds
    TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // elements per row (product of the trailing dims)
    TILING_DATA_FIELD_DEF(uint32_t, outRows);     // output_feeds_size
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // output rows of a small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);  // cores with one more output row
    TILING_DATA_FIELD_DEF(uint32_t, colTile);     // elements of one row loaded at a time
    TILING_DATA_FIELD_DEF(uint32_t, repElems);    // elements of one replicated-rows tile
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FeedsRepeat, FeedsRepeatTilingData)
}  // namespace optiling
#endif
