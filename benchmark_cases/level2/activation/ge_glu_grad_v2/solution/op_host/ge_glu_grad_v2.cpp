#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(GeGluGradV2, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint64_t rows = 0;
    uint64_t cols = 0;
    if (!L2aSplitDims(context->GetInputShape(1)->GetStorageShape(), *context->GetAttrs()->GetInt(0), rows, cols)) {
        return ge::GRAPH_FAILED;  // the split dimension must exist and have an even size
    }
    return L2aElementwiseTiling(context, rows, cols, {6, 2},
                                static_cast<float>(*context->GetAttrs()->GetInt(1)),
                                *context->GetAttrs()->GetBool(2) ? 1.0f : 0.0f);
}
}  // namespace optiling

namespace ops {
class GeGluGradV2 : public OpDef {
public:
    explicit GeGluGradV2(const char* name) : OpDef(name)
    {
        this->Input("dy")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gelu")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("dx")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(-1);
        this->Attr("approximate").AttrType(OPTIONAL).Int(1);
        this->Attr("activate_left").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GeGluGradV2);
}  // namespace ops
