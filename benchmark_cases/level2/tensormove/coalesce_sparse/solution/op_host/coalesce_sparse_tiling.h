#ifndef COALESCE_SPARSE_TILING_H
#define COALESCE_SPARSE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CoalesceSparseTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, nnz);             // input entries
    TILING_DATA_FIELD_DEF(uint32_t, rowLen);          // value elements per entry
    TILING_DATA_FIELD_DEF(uint32_t, ndim);            // index components per entry
    TILING_DATA_FIELD_DEF(uint32_t, outRows);         // m: unique entries
    TILING_DATA_FIELD_DEF(uint32_t, entriesPerCore);  // entries of a small core
    TILING_DATA_FIELD_DEF(uint32_t, entriesBigCores); // cores with one more entry
    TILING_DATA_FIELD_DEF(uint32_t, zeroPerCore);     // new_values elements zeroed by a small core
    TILING_DATA_FIELD_DEF(uint32_t, zeroBigCores);
    TILING_DATA_FIELD_DEF(uint32_t, tileEntries);     // entries per UB tile
    TILING_DATA_FIELD_DEF(uint32_t, zeroElems);       // elements of the zero tile
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CoalesceSparse, CoalesceSparseTilingData)
}  // namespace optiling
#endif
