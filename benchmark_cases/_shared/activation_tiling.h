// activation_tiling.h -- host tiling shared by the level-2 activation solutions that run on the
// activation_kernel.h kernel base. The tensors are seen as rows x cols matrices (GLU operators: the
// part before the split dimension x the part after it; plain elementwise operators: 1 x N).
#ifndef ACTIVATION_TILING_H
#define ACTIVATION_TILING_H

#include <algorithm>
#include <cstdint>

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2aEltTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, rowCores);   // cores splitting the rows
    TILING_DATA_FIELD_DEF(uint32_t, colCores);   // cores splitting 32-byte column blocks
    TILING_DATA_FIELD_DEF(uint32_t, tileElems);  // UB elements per plane per tile
    TILING_DATA_FIELD_DEF(uint32_t, colTile);    // columns per tile
    TILING_DATA_FIELD_DEF(float, attr0);         // operator scalars (meaning documented per operator)
    TILING_DATA_FIELD_DEF(float, attr1);
    TILING_DATA_FIELD_DEF(float, attr2);
END_TILING_DATA_DEF;

struct L2aEltPlanes {
    uint32_t io;   // input + output planes (a split tensor counts twice)
    uint32_t tmp;  // float32 scratch planes of the operator
};

// Views `shape` split in k equal parts along `dim` (negative counts from the end) as rows x cols:
// rows = product of the dims before `dim`, cols = `dim` / k times the dims after it.
inline bool L2aSplitDims(const gert::Shape& shape, int64_t dim, uint64_t& rows, uint64_t& cols, int64_t k = 2)
{
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    if (dim < 0) {
        dim += rank;
    }
    if (dim < 0 || dim >= rank || shape.GetDim(dim) % k != 0) {
        return false;
    }
    rows = 1;
    cols = static_cast<uint64_t>(shape.GetDim(dim) / k);
    for (int64_t i = 0; i < dim; ++i) {
        rows *= static_cast<uint64_t>(shape.GetDim(i));
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        cols *= static_cast<uint64_t>(shape.GetDim(i));
    }
    return true;
}

// Fills the tiling for a rows x cols problem whose element type is input 0's dtype.
inline ge::graphStatus L2aElementwiseTiling(gert::TilingContext* context, uint64_t rows, uint64_t cols,
                                            L2aEltPlanes planes, float attr0 = 0.0f, float attr1 = 0.0f,
                                            float attr2 = 0.0f)
{
    constexpr uint32_t kBlockBytes = 32;
    constexpr uint32_t kBufferNum = 2;
    constexpr uint64_t kMinBytesPerCore = 8192;  // below this another core costs more than it saves
    constexpr uint32_t kMaxTileElems = 16384;
    constexpr uint64_t kUbReserve = 1024;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    if (typeSize == 0 || rows == 0 || cols == 0 || rows > UINT32_MAX || cols > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t epb = kBlockBytes / typeSize;

    // UB: every io plane double-buffered in its dtype, float32 copies of them when the dtype is
    // narrower, and the operator's float32 scratch planes.
    const uint32_t castPlanes = typeSize == sizeof(float) ? 0 : planes.io;
    const uint64_t bytesPerElem = uint64_t(kBufferNum) * planes.io * typeSize +
                                  uint64_t(castPlanes + planes.tmp) * sizeof(float);
    uint32_t tileElems = static_cast<uint32_t>((ubSize - kUbReserve) / bytesPerElem);
    tileElems = std::min<uint32_t>(tileElems / 64 * 64, kMaxTileElems);

    const uint64_t totalBytes = rows * cols * planes.io * typeSize;
    uint64_t want = (totalBytes + kMinBytesPerCore - 1) / kMinBytesPerCore;
    want = std::max<uint64_t>(1, std::min<uint64_t>(want, coreNum));
    const uint64_t colBlocks = (cols + epb - 1) / epb;
    uint32_t rowCores = 1;
    uint32_t colCores = 1;
    if (rows >= want) {
        rowCores = static_cast<uint32_t>(want);
    } else {
        // Few long rows: split columns; rows that exist still spread over cores where they can.
        rowCores = static_cast<uint32_t>(rows);
        colCores = static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(want / rows, colBlocks)));
    }
    const uint32_t colTile = std::min<uint32_t>(tileElems, static_cast<uint32_t>((cols + epb - 1) / epb * epb));

    L2aEltTilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_rowCores(rowCores);
    tiling.set_colCores(colCores);
    tiling.set_tileElems(tileElems);
    tiling.set_colTile(colTile);
    tiling.set_attr0(attr0);
    tiling.set_attr1(attr1);
    tiling.set_attr2(attr2);
    context->SetBlockDim(rowCores * colCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#endif  // ACTIVATION_TILING_H
