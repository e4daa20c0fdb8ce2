#ifndef BATCH_NORM_V3_TILING_H
#define BATCH_NORM_V3_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchNormV3TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);          // N
    TILING_DATA_FIELD_DEF(uint32_t, channels);       // C
    TILING_DATA_FIELD_DEF(uint32_t, hw);             // elements of one (n, c) row
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);     // cores that take chPerCore + 1 channels
    TILING_DATA_FIELD_DEF(uint32_t, chPerCore);      // channels of a small core
    TILING_DATA_FIELD_DEF(uint32_t, tileLen);        // elements per UB tile (multiple of 64)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);    // whole rows per tile (0: rows cut into chunks)
    TILING_DATA_FIELD_DEF(uint32_t, bufNum);         // queue depth (1 or 2)
    TILING_DATA_FIELD_DEF(uint32_t, training);
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, momentum);
    TILING_DATA_FIELD_DEF(float, invCount);          // 1 / M
    TILING_DATA_FIELD_DEF(float, bessel);            // M / (M - 1)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BatchNormV3, BatchNormV3TilingData)
}  // namespace optiling
#endif
