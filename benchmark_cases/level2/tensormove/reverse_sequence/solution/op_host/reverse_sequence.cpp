#include <algorithm>

#include "register/op_def_registry.h"
#include "reverse_sequence_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    constexpr uint64_t kBufNum = 2;
    constexpr uint64_t kReserve = 1024;
    constexpr uint64_t kMaxRowsPerTile = 1024;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t seqDim = *attrs->GetAttrPointer<int64_t>(0);
    const int64_t batchDim = *attrs->GetAttrPointer<int64_t>(1);
    const bool batchMajor = seqDim == 1 && batchDim == 0;
    if (xs.GetDimNum() < 2 || !(batchMajor || (seqDim == 0 && batchDim == 1))) {
        return ge::GRAPH_FAILED;  // supported layouts: [B, S, ...] and [S, B, ...]
    }
    const uint64_t batch = xs.GetDim(batchDim);
    const uint64_t seq = xs.GetDim(seqDim);
    uint64_t width = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) {
        width *= xs.GetDim(i);
    }
    const uint64_t rows = batch * seq;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    const uint64_t epb = 32 / typeSize;
    const uint64_t tileElems = (ubSize - kReserve) / kBufNum / typeSize / epb * epb;
    const uint64_t alignedW = (width + epb - 1) / epb * epb;
    const uint64_t colTile = std::min<uint64_t>(alignedW, tileElems);
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, rows));
    const uint64_t rowsPerCore = rows / useCores;
    uint64_t rowsPerTile = alignedW <= colTile ? tileElems / alignedW : 1;
    rowsPerTile = std::max<uint64_t>(1, std::min<uint64_t>({rowsPerTile, rowsPerCore + 1, kMaxRowsPerTile}));

    ReverseSequenceTilingData tiling;
    tiling.set_batch(static_cast<uint32_t>(batch));
    tiling.set_seq(static_cast<uint32_t>(seq));
    tiling.set_batchMajor(batchMajor ? 1 : 0);
    tiling.set_width(static_cast<uint32_t>(width));
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
class ReverseSequence : public OpDef {
public:
    explicit ReverseSequence(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("seq_lengths")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("seq_dim").AttrType(OPTIONAL).Int(1);
        this->Attr("batch_dim").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ReverseSequence);
}  // namespace ops
