// l1_reduce_tiling.h -- tiling data of the level-1 global reductions (l1_reduce.h, l1_reduce_host.h).
#ifndef L1_REDUCE_TILING_H
#define L1_REDUCE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L1ReduceTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of the kernel's view of x
    TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);  // 256-element units per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra unit
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;
}  // namespace optiling
#endif  // L1_REDUCE_TILING_H
