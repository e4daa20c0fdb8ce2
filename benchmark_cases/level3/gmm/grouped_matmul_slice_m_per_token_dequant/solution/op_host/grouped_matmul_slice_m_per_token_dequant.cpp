#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct GroupedTiling {
    uint32_t m, n, k, groups;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    auto* t = context->GetTilingData<GroupedTiling>();
    t->m = a.GetDim(0);
    t->k = a.GetDim(1);
    t->groups = b.GetDim(0);
    t->n = b.GetDim(2);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic();
    context->SetBlockDim(cores);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(cores) * 2 * 128 * 256 * sizeof(int32_t) + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GroupedMatmulSliceMPerTokenDequant : public OpDef {
public:
    explicit GroupedMatmulSliceMPerTokenDequant(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_BF16}).Format({ge::FORMAT_ND});
        this->Input("per_token_scale").ParamType(REQUIRED).DataType({ge::DT_BF16}).Format({ge::FORMAT_ND});
        this->Input("group_list").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_BF16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupedMatmulSliceMPerTokenDequant);
}  // namespace ops
