#include <algorithm>
#include <vector>

#include "expand_v2_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    constexpr uint64_t kBufNum = 2;
    constexpr uint64_t kReserve = 1024;
    constexpr uint64_t kMaxRowsPerTile = 1024;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::ContinuousVector* shapeAttr = context->GetAttrs()->GetAttrPointer<gert::ContinuousVector>(0);
    if (shapeAttr == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const int64_t* target = static_cast<const int64_t*>(shapeAttr->GetData());
    const size_t rank = shapeAttr->GetSize();
    const size_t xRank = xs.GetDimNum();
    if (rank == 0 || rank < xRank || rank - 1 > EXPAND_MAX_RANK) {
        return ge::GRAPH_FAILED;
    }
    // x's dims right-aligned to the output rank; -1 keeps x's dim.
    std::vector<uint64_t> xd(rank, 1);
    std::vector<uint64_t> od(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        const bool inX = i >= rank - xRank;
        xd[i] = inX ? xs.GetDim(i - (rank - xRank)) : 1;
        od[i] = target[i] == -1 ? xd[i] : static_cast<uint64_t>(target[i]);
        if (xd[i] != od[i] && xd[i] != 1) {
            return ge::GRAPH_FAILED;  // not broadcastable
        }
    }
    uint32_t outDims[EXPAND_MAX_RANK] = {};
    uint32_t xStrides[EXPAND_MAX_RANK] = {};
    uint64_t stride = xd[rank - 1];
    uint64_t rows = 1;
    for (size_t i = rank - 1; i-- > 0;) {
        outDims[i] = static_cast<uint32_t>(od[i]);
        xStrides[i] = xd[i] == 1 ? 0 : static_cast<uint32_t>(stride);
        stride *= xd[i];
        rows *= od[i];
    }
    const uint64_t width = od[rank - 1];

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint64_t epb = 32 / typeSize;
    // One queue double-buffered: a tile of rows x colTile elements, rows 32-byte aligned.
    const uint64_t tileElems = (ubSize - kReserve) / kBufNum / typeSize / epb * epb;
    const uint64_t alignedW = (width + epb - 1) / epb * epb;
    uint64_t colTile = std::min<uint64_t>(alignedW, tileElems);
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, rows));
    const uint64_t rowsPerCore = rows / useCores;
    uint64_t rowsPerTile = alignedW <= colTile ? tileElems / alignedW : 1;
    rowsPerTile = std::max<uint64_t>(1, std::min<uint64_t>({rowsPerTile, rowsPerCore + 1, kMaxRowsPerTile}));

    ExpandV2TilingData tiling;
    tiling.set_rowDims(static_cast<uint32_t>(rank - 1));
    tiling.set_outDims(outDims);
    tiling.set_xStrides(xStrides);
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_width(static_cast<uint32_t>(width));
    tiling.set_lastBroadcast(xd[rank - 1] == 1 && width != 1 ? 1 : 0);
    tiling.set_bigCoreNum(static_cast<uint32_t>(rows % useCores));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rowsPerCore));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_colTile(static_cast<uint32_t>(colTile));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ExpandV2 : public OpDef {
public:
    explicit ExpandV2(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("shape").AttrType(REQUIRED).ListInt({});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ExpandV2);
}  // namespace ops
