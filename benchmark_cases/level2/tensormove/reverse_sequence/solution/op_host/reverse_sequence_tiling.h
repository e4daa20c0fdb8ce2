#ifndef REVERSE_SEQUENCE_TILING_H
#define REVERSE_SEQUENCE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReverseSequenceTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);        // B
    TILING_DATA_FIELD_DEF(uint32_t, seq);          // S
    TILING_DATA_FIELD_DEF(uint32_t, batchMajor);   // 1: [B, S, ...]; 0: [S, B, ...]
    TILING_DATA_FIELD_DEF(uint32_t, width);        // elements per (b, s) row
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
    TILING_DATA_FIELD_DEF(uint32_t, colTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReverseSequence, ReverseSequenceTilingData)
}  // namespace optiling
#endif
