#ifndef STRIDED_SLICE_ASSIGN_V2_TILING_H
#define STRIDED_SLICE_ASSIGN_V2_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
constexpr uint32_t kSsaMaxDims = 8;

BEGIN_TILING_DATA_DEF(StridedSliceAssignV2TilingData)
    // The slice is a set of rows: rowLen contiguous elements each, both in input_value (back to back)
    // and in var. Row r has the multi-index (i_0, ..., i_{m-1}) over the m index dims (last fastest);
    // its var offset is varBase + sum i_d * varStep[d].
    TILING_DATA_FIELD_DEF(uint32_t, indexDims);                       // m >= 1
    TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, counts);                   // n_d
    TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, varStep);                  // strides[d] * var stride of d
    TILING_DATA_FIELD_DEF(uint64_t, varBase);                         // offset of the first element
    TILING_DATA_FIELD_DEF(uint64_t, rowLen);                          // elements per row
    TILING_DATA_FIELD_DEF(uint64_t, totalItems);                      // rows * chunksPerRow
    TILING_DATA_FIELD_DEF(uint64_t, itemsPerCore);                    // items of a small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);                      // cores with one more item
    TILING_DATA_FIELD_DEF(uint32_t, chunksPerRow);                    // > 1: rows cut into chunks
    TILING_DATA_FIELD_DEF(uint32_t, chunkLen);                        // elements per chunk
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);                     // rows per copy (chunksPerRow == 1)
    TILING_DATA_FIELD_DEF(uint32_t, tileBytes);                       // UB bytes per queue buffer
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StridedSliceAssignV2, StridedSliceAssignV2TilingData)
}  // namespace optiling
#endif
