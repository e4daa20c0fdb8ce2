// row_softmax_tiling.h -- host tiling shared by the level-2 row-wise softmax family: CrossEntropyLoss,
// CrossEntropyLossGrad, InplaceAttnSoftmax.
//
// The data is N rows of C elements (classes). Rows are split over the vector cores (the
// first bigCoreNum cores take one extra row); each core walks its rows in tiles of rowsPerTile rows,
// every row padded to rowStride elements (32 bytes of the data type) in UB. The tile height comes
// from the real UB size; queues are double-buffered when two tiles of one row fit, single otherwise.
#ifndef ROW_SOFTMAX_TILING_H
#define ROW_SOFTMAX_TILING_H

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2a2XentTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRows);      // N
    TILING_DATA_FIELD_DEF(uint32_t, numCls);       // C
    TILING_DATA_FIELD_DEF(uint32_t, rowStride);    // C rounded up to 32 bytes of the data type
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);   // cores that take rowsPerCore + 1 rows
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows of a small core
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows per UB tile
    TILING_DATA_FIELD_DEF(uint32_t, bufNum);       // queue depth actually used (1 or 2)
    TILING_DATA_FIELD_DEF(uint32_t, reduction);    // 0 none, 1 mean, 2 sum
    TILING_DATA_FIELD_DEF(int64_t, ignoreIndex);
END_TILING_DATA_DEF;

constexpr uint32_t kL2a2XentNone = 0;
constexpr uint32_t kL2a2XentMean = 1;
constexpr uint32_t kL2a2XentSum = 2;

// UB bytes an operator needs: per row of the tile (queued planes in the data type, float32 planes)
// and once per core.
struct L2a2XentBuffers {
    uint32_t queuedT;  // row planes in the data type that are queued (double-buffered)
    uint32_t floatT;   // float32 row planes only needed when the data type is narrower than float32
    uint32_t float32;  // float32 row planes needed for every data type
    uint32_t fixedFloatRows = 0;  // float32 rows (of the row stride) kept for the whole run
};

// Fills the row split and tile height of `tiling` and the block dim for numRows x numCls rows of
// `typeSize`-byte elements; the workspace holds one 32-byte partial slot per core after the system
// workspace (for SyncAll). Returns false when a row does not fit UB.
inline bool L2a2RowTiling(gert::TilingContext* context, uint64_t n, uint64_t c, uint32_t typeSize,
                          L2a2XentBuffers bufs, L2a2XentTilingData& tiling)
{
    constexpr uint64_t kBlock = 32;
    constexpr uint64_t kReserve = 2048;
    constexpr uint64_t kMaxRowsPerTile = 1024;
    // Elements of one core below which another core costs more (launch, SyncAll) than it saves.
    constexpr uint64_t kMinElemsPerCore = 4096;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    if (typeSize == 0 || n == 0 || c == 0 || n > UINT32_MAX || c > UINT32_MAX) {
        return false;
    }
    const uint64_t epb = kBlock / typeSize;
    const uint64_t stride = (c + epb - 1) / epb * epb;
    const uint64_t floatPlanes = bufs.float32 + (typeSize == sizeof(float) ? 0 : bufs.floatT);
    // Per row: queued planes, float32 planes, three 32-byte reduction slots, the int64 target and the
    // per-row loss / scale (float32 plus queued data type).
    auto perRow = [&](uint64_t bufNum) {
        return bufNum * (bufs.queuedT * stride * typeSize + typeSize) + floatPlanes * stride * 4 + 3 * kBlock +
               sizeof(int64_t) + 2 * sizeof(float);
    };
    // Once per core: ReduceMax / ReduceSum work area (two values per 256-byte repeat), the partials
    // of every core (one 32-byte slot each) and the block padding of the small per-row buffers.
    const uint64_t work = ((c * 4 + 255) / 256 * 8 + kBlock - 1) / kBlock * kBlock;
    const uint64_t fixed = work + coreNum * kBlock + 8 * kBlock + kReserve + uint64_t(bufs.fixedFloatRows) * stride * 4;
    uint64_t bufNum = 2;
    uint64_t rowsPerTile = ubSize > fixed ? (ubSize - fixed) / perRow(2) : 0;
    if (rowsPerTile == 0) {
        bufNum = 1;
        rowsPerTile = ubSize > fixed ? (ubSize - fixed) / perRow(1) : 0;
    }
    if (rowsPerTile == 0) {
        return false;
    }
    uint64_t cores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, n * c / kMinElemsPerCore));
    cores = std::min<uint64_t>(cores, n);
    const uint64_t rowsPerCore = n / cores;
    // Give every core at least two tiles when it has enough rows, so copies overlap compute.
    const uint64_t busiest = rowsPerCore + (n % cores ? 1 : 0);
    rowsPerTile = std::min<uint64_t>({rowsPerTile, kMaxRowsPerTile, std::max<uint64_t>(1, (busiest + 1) / 2)});

    tiling.set_numRows(static_cast<uint32_t>(n));
    tiling.set_numCls(static_cast<uint32_t>(c));
    tiling.set_rowStride(static_cast<uint32_t>(stride));
    tiling.set_bigCoreNum(static_cast<uint32_t>(n % cores));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rowsPerCore));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_bufNum(static_cast<uint32_t>(bufNum));
    context->SetBlockDim(static_cast<uint32_t>(cores));
    context->SetTilingKey(bufNum);
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(cores) * kBlock;
    return true;
}

inline void L2a2SaveTiling(gert::TilingContext* context, L2a2XentTilingData& tiling)
{
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
}

// CrossEntropyLoss(Grad): input `logitsInput` is [N, C]; attrs 0 = reduction, 1 = ignore_index.
inline ge::graphStatus L2a2XentTiling(gert::TilingContext* context, size_t logitsInput, L2a2XentBuffers bufs)
{
    const gert::Shape& shape = context->GetInputShape(logitsInput)->GetStorageShape();
    if (shape.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(logitsInput)->GetDataType(), typeSize);
    uint32_t reduction = kL2a2XentMean;
    const char* red = context->GetAttrs()->GetStr(0);
    if (red != nullptr && std::strcmp(red, "sum") == 0) {
        reduction = kL2a2XentSum;
    } else if (red != nullptr && std::strcmp(red, "none") == 0) {
        reduction = kL2a2XentNone;
    } else if (red != nullptr && std::strcmp(red, "mean") != 0) {
        return ge::GRAPH_FAILED;
    }
    const int64_t* ignore = context->GetAttrs()->GetInt(1);
    L2a2XentTilingData tiling;
    if (!L2a2RowTiling(context, static_cast<uint64_t>(shape.GetDim(0)), static_cast<uint64_t>(shape.GetDim(1)),
                       typeSize, bufs, tiling)) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_reduction(reduction);
    tiling.set_ignoreIndex(ignore != nullptr ? *ignore : -100);
    L2a2SaveTiling(context, tiling);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#endif  // ROW_SOFTMAX_TILING_H
