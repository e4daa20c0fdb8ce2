// row_norm_tiling.h -- host tiling shared by the level-2 row-normalization solutions that run on
// the row_norm_kernel.h kernel base (RmsNorm, AddRmsNorm*, LayerNormV4, AddLayerNorm, PreLayerNorm,
// DeepNorm, InplaceAdd*Norm, MulMulReduceMeanDTwice).
//
// The input is viewed as numRows x colLen (colLen = the normalized size D). Rows are split over the
// vector cores (the first bigCoreNum cores take one extra row); each core walks its rows in tiles of
// rowsPerTile rows, every row padded to rowStride elements (32 bytes) in UB. The tile height comes
// from the real UB size: queues double-buffered when two tiles of one row fit, single otherwise.
#ifndef ROW_NORM_TILING_H
#define ROW_NORM_TILING_H

#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2bRowNormTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, numRows);      // rows (product of the leading dims)
    TILING_DATA_FIELD_DEF(uint32_t, colLen);       // D: elements normalized together
    TILING_DATA_FIELD_DEF(uint32_t, rowStride);    // D rounded up to 32 bytes of the input dtype
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);   // cores that take rowsPerCore + 1 rows
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows of a small core
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows per UB tile
    TILING_DATA_FIELD_DEF(uint32_t, bufNum);       // queue depth actually used (1 or 2)
    TILING_DATA_FIELD_DEF(float, epsilon);
    TILING_DATA_FIELD_DEF(float, alpha);           // DeepNorm's alpha (1 elsewhere)
    TILING_DATA_FIELD_DEF(float, invColLen);       // 1 / D
END_TILING_DATA_DEF;

// UB row buffers of one operator: what the tiling must make room for.
struct L2bRowNormBuffers {
    uint32_t inT;     // input rows in the input dtype (queued)
    uint32_t outT;    // output rows in the input dtype (queued)
    uint32_t outF;    // float32 output rows (queued)
    uint32_t outI8;   // int8 output rows (queued)
    uint32_t params;  // float32 vectors of length D kept for the whole run (gamma, beta, scale, ...)
};

inline ge::graphStatus L2bRowNormTiling(gert::TilingContext* context, uint64_t numRows, uint64_t colLen,
                                        L2bRowNormBuffers bufs, float epsilon, float alpha = 1.0f,
                                        uint64_t strideAlign = 1, size_t dtypeInput = 0)
{
    constexpr uint64_t kBlock = 32;
    constexpr uint64_t kReserve = 1024;
    constexpr uint64_t kMaxRowsPerTile = 1024;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(dtypeInput)->GetDataType(), typeSize);
    if (typeSize == 0 || colLen == 0 || numRows > UINT32_MAX || colLen > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    // Row stride in UB: whole 32-byte blocks of the input dtype, or a multiple of strideAlign elements
    // for kernels that keep several element sizes at one row stride.
    const uint64_t epb = std::max<uint64_t>(kBlock / typeSize, strideAlign);
    const uint64_t stride = (colLen + epb - 1) / epb * epb;
    const uint64_t strideI8 = (colLen + kBlock - 1) / kBlock * kBlock;
    // Per row: queued rows, two float32 scratch rows (x and tmp), the per-row statistics (mean and
    // rstd queued, three 32-byte reduction slots).
    auto perRow = [&](uint64_t bufNum) {
        return bufNum * (uint64_t(bufs.inT + bufs.outT) * stride * typeSize + uint64_t(bufs.outF) * stride * 4 +
                         uint64_t(bufs.outI8) * strideI8 + 2 * kBlock) +
               2 * stride * 4 + 3 * kBlock;
    };
    // Once per core: parameter vectors and the reduction work area.
    const uint64_t fixed = uint64_t(bufs.params + 1) * stride * 4 + kReserve;
    if (fixed >= ubSize) {
        return ge::GRAPH_FAILED;
    }
    uint64_t bufNum = 2;
    uint64_t rowsPerTile = (ubSize - fixed) / perRow(2);
    if (rowsPerTile == 0) {
        bufNum = 1;
        rowsPerTile = (ubSize - fixed) / perRow(1);
    }
    if (rowsPerTile == 0) {
        return ge::GRAPH_FAILED;  // D too large for the in-UB row path (constraint in api_desc.md)
    }
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, numRows));
    const uint64_t rowsPerCore = numRows / useCores;
    const uint64_t maxRows = rowsPerCore + (numRows % useCores ? 1 : 0);
    rowsPerTile = std::max<uint64_t>(1, std::min({rowsPerTile, maxRows, kMaxRowsPerTile}));

    L2bRowNormTilingData tiling;
    tiling.set_numRows(static_cast<uint32_t>(numRows));
    tiling.set_colLen(static_cast<uint32_t>(colLen));
    tiling.set_rowStride(static_cast<uint32_t>(stride));
    tiling.set_bigCoreNum(static_cast<uint32_t>(numRows % useCores));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rowsPerCore));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_bufNum(static_cast<uint32_t>(bufNum));
    tiling.set_epsilon(epsilon);
    tiling.set_alpha(alpha);
    tiling.set_invColLen(1.0f / static_cast<float>(colLen));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

// Attribute helpers (index = position in the OpDef's Attr list).
inline float L2bAttrFloat(gert::TilingContext* context, size_t index, float fallback)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* value = attrs == nullptr ? nullptr : attrs->GetAttrPointer<float>(index);
    return value == nullptr ? fallback : *value;
}
}  // namespace optiling

#endif  // ROW_NORM_TILING_H
