// elementwise_tiling_data.h -- tiling data shared by the level-1 elementwise solutions (kernel base:
// elementwise_kernel.h, host helper: elementwise_host_tiling.h). Each operator registers it under its own
// name in op_host/<kernel>_tiling.h.
#ifndef ELEMENTWISE_TILING_DATA_H
#define ELEMENTWISE_TILING_DATA_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L1EltTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // elements overall
    TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);  // 256-element units per small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take one extra unit
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (multiple of 256)
    TILING_DATA_FIELD_DEF(uint32_t, calcBytes);     // float32 scratch bytes per tile element
    TILING_DATA_FIELD_DEF(uint32_t, mode);          // operator-specific variant (documented per operator)
    TILING_DATA_FIELD_DEF(float, scalar0);          // operator scalars (documented per operator)
    TILING_DATA_FIELD_DEF(float, scalar1);
END_TILING_DATA_DEF;
}  // namespace optiling
#endif  // ELEMENTWISE_TILING_DATA_H
