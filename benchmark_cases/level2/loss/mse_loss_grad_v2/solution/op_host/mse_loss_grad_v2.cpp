#include <cstring>

#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(MseLossGradV2, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const char* reduction = context->GetAttrs()->GetStr(0);
    const bool mean = reduction != nullptr && std::strcmp(reduction, "mean") == 0;
    return L2aElementwiseTiling(context, 1, n, {4, 0}, mean ? static_cast<float>(1.0 / static_cast<double>(n)) : 1.0f);
}
}  // namespace optiling

namespace ops {
class MseLossGradV2 : public OpDef {
public:
    explicit MseLossGradV2(const char* name) : OpDef(name)
    {
        this->Input("predict")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("label")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("dout")
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
OP_ADD(MseLossGradV2);
}  // namespace ops
