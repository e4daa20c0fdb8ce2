#include "layer_norm_v4_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const gert::ContinuousVector* normShape = attrs->GetAttrPointer<gert::ContinuousVector>(0);
    const size_t k = normShape == nullptr ? 1 : normShape->GetSize();
    if (k == 0 || k > x.GetDimNum()) {
        return ge::GRAPH_FAILED;
    }
    // The normalized dims are the trailing k dims of x: one row of D elements per leading index.
    uint64_t d = 1;
    for (size_t i = x.GetDimNum() - k; i < x.GetDimNum(); ++i) {
        d *= x.GetDim(i);
    }
    const uint64_t rows = d == 0 ? 0 : x.GetShapeSize() / d;
    const float eps = L2bAttrFloat(context, 1, 1e-5f);
    // x in; y out; gamma, beta (when present) kept in float32.
    return L2bRowNormTiling(context, rows, d, L2bRowNormBuffers{1, 1, 0, 0, 2}, eps);
}
}  // namespace optiling

namespace ops {
class LayerNormV4 : public OpDef {
public:
    explicit LayerNormV4(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(OPTIONAL)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("mean")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("rstd")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("normalized_shape").AttrType(REQUIRED).ListInt({});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-05);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(LayerNormV4);
}  // namespace ops
