#include <cstring>

#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(MseLoss, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // Tiling key 0: reduction "none" (elementwise); 1: "mean" / "sum" (reduce across cores).
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const char* reduction = context->GetAttrs()->GetStr(0);
    const bool none = reduction != nullptr && std::strcmp(reduction, "none") == 0;
    const bool mean = reduction == nullptr || std::strcmp(reduction, "mean") == 0;
    // Planes: predict, label, y / accumulator, plus one float32 scratch (ReduceSum work space).
    ge::graphStatus status = L2aElementwiseTiling(context, 1, n, {3, 2},
                                                  mean ? static_cast<float>(1.0 / static_cast<double>(n)) : 1.0f);
    if (status != ge::GRAPH_SUCCESS || none) {
        context->SetTilingKey(0);
        return status;
    }
    context->SetTilingKey(1);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t* workspace = context->GetWorkspaceSizes(1);
    // System workspace for SyncAll + one 32-byte partial-sum slot per core.
    workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(context->GetBlockDim()) * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MseLoss : public OpDef {
public:
    explicit MseLoss(const char* name) : OpDef(name)
    {
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("label")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MseLoss);
}  // namespace ops
