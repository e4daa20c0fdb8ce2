// triangle_tiling.h -- host tiling shared by Tril and Triu (see triangle_kernel.h).
#ifndef TRIANGLE_TILING_H
#define TRIANGLE_TILING_H

#include <algorithm>
#include <cstdint>

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2aTriTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, height);
    TILING_DATA_FIELD_DEF(int32_t, diagonal);
    TILING_DATA_FIELD_DEF(uint32_t, coreNum);
    TILING_DATA_FIELD_DEF(uint32_t, tileElems);
    TILING_DATA_FIELD_DEF(uint32_t, colTile);
END_TILING_DATA_DEF;

inline ge::graphStatus L2aTriangleTiling(gert::TilingContext* context)
{
    constexpr uint64_t kMinBytesPerCore = 8192;
    constexpr uint32_t kMaxColTile = 8192;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;  // needs a matrix in the last two dimensions
    }
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint64_t cols = static_cast<uint64_t>(shape.GetDim(rank - 1));
    const uint64_t height = static_cast<uint64_t>(shape.GetDim(rank - 2));
    const uint64_t rows = shape.GetShapeSize() / std::max<uint64_t>(cols, 1);
    if (typeSize == 0 || cols == 0 || rows == 0) {
        return ge::GRAPH_FAILED;
    }
    // Column chunk: the whole row up to 8192 columns, 64-aligned for the float ramp compare.
    const uint32_t colTile = static_cast<uint32_t>(std::min<uint64_t>((cols + 63) / 64 * 64, kMaxColTile));
    // UB: ramp (float) + mask bits, then in/out queues double-buffered.
    const uint64_t fixed = uint64_t(colTile) * sizeof(float) + colTile / 8 + 1024;
    uint32_t tileElems = static_cast<uint32_t>((ubSize - fixed) / (4 * typeSize));
    tileElems = std::min<uint32_t>(tileElems / 64 * 64, 32768);
    const uint64_t bytes = rows * cols * typeSize;
    uint64_t use = std::max<uint64_t>(1, std::min<uint64_t>((bytes + kMinBytesPerCore - 1) / kMinBytesPerCore, coreNum));
    use = std::min<uint64_t>(use, rows);

    L2aTriTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_height(static_cast<uint32_t>(height));
    tiling.set_diagonal(static_cast<int32_t>(*context->GetAttrs()->GetInt(0)));
    tiling.set_coreNum(static_cast<uint32_t>(use));
    tiling.set_tileElems(tileElems);
    tiling.set_colTile(colTile);
    context->SetBlockDim(static_cast<uint32_t>(use));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#endif  // TRIANGLE_TILING_H
