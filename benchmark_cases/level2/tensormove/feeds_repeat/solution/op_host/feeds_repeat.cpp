#include "feeds_repeat_tiling.h"
#include <algorithm>
#include "graph/utils/type_utils.h"
#include "tiling/platform/platform_ascendc.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& feeds = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t* outSize = attrs == nullptr ? nullptr : attrs->GetAttrPointer<int64_t>(0);
    if (outSize == nullptr || *outSize < 0 || feeds.GetDimNum() == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t feedRows = feeds.GetDim(0);
    const uint64_t rowLen = feedRows == 0 ? 0 : feeds.GetShapeSize() / feedRows;
    const uint64_t outRows = static_cast<uint64_t>(*outSize);
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t coreNum = platform.GetCoreNumAiv();
    // Output rows split evenly: every output row is one row write, whichever feed it repeats.
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, outRows));
    FeedsRepeatTilingData tiling;
    tiling.set_feedRows(static_cast<uint32_t>(feedRows));
    tiling.set_rowLen(static_cast<uint32_t>(rowLen));
    tiling.set_outRows(static_cast<uint32_t>(outRows));
    tiling.set_rowsPerCore(static_cast<uint32_t>(outRows / useCores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(outRows % useCores));
    // UB: the repeat counts, a double-buffered input column tile and a double-buffered tile of
    // replicated rows (kRepBytes each).
    constexpr uint64_t kInBytes = 16 * 1024;
    constexpr uint64_t kRepBytes = 64 * 1024;
    tiling.set_colTile(static_cast<uint32_t>(kInBytes / typeSize));
    tiling.set_repElems(static_cast<uint32_t>(kRepBytes / typeSize));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class FeedsRepeat : public OpDef {
public:
    explicit FeedsRepeat(const char* name) : OpDef(name)
    {
        this->Input("feeds")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("feeds_repeat_times")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("output_feeds_size").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FeedsRepeat);
}  // namespace ops
