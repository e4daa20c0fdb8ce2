#ifndef STRIDESLICE_NEG_CONCAT_V2_TILING_H
#define STRIDESLICE_NEG_CONCAT_V2_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StridesliceNegConcatV2TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of the leading dims
    TILING_DATA_FIELD_DEF(uint32_t, half);          // h = last dim / 2
    TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // columns of one half moved per row and step
    TILING_DATA_FIELD_DEF(uint32_t, chunks);        // ceil(half / chunkLen)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerStep);   // rows per step when chunks == 1 (else 1)
    TILING_DATA_FIELD_DEF(uint32_t, tileElems);     // UB elements per region
    TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);  // work items (rows, or row x chunk) per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra item
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StridesliceNegConcatV2, StridesliceNegConcatV2TilingData)
}  // namespace optiling
#endif
