// reduce_tiling_data.h -- tiling data of the level-1 global reductions (reduce_kernel.h, reduce_host_tiling.h).
#ifndef REDUCE_TILING_DATA_H
#define REDUCE_TILING_DATA_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L1ReduceTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements of the kernel's view of x
    TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);  // 256-element units per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra unit
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile
END_TILING_DATA_DEF;
}  // namespace optiling
#endif  // REDUCE_TILING_DATA_H
