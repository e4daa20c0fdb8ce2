#ifndef GATHER_V3_TILING_H
#define GATHER_V3_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatherV3TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, gatherDim);     // D = x.shape[dim]
    TILING_DATA_FIELD_DEF(uint32_t, indexDim);      // K = index.shape[dim]
    TILING_DATA_FIELD_DEF(uint32_t, inner);         // product of the dims after dim
    TILING_DATA_FIELD_DEF(uint32_t, rows);          // outer * K index rows of `inner` elements
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra row
    TILING_DATA_FIELD_DEF(uint32_t, chunk);         // index elements per step (whole rows when inner fits)
    TILING_DATA_FIELD_DEF(uint32_t, slabCapacity);  // UB elements reserved for one slab x[o]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatherV3, GatherV3TilingData)
}  // namespace optiling
#endif
