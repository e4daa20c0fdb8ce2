#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(MulSigmoid, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const auto* attrs = context->GetAttrs();
    return L2aElementwiseTiling(context, 1, n, {3, 2}, *attrs->GetFloat(0), *attrs->GetFloat(1),
                                *attrs->GetFloat(2));
}
}  // namespace optiling

namespace ops {
class MulSigmoid : public OpDef {
public:
    explicit MulSigmoid(const char* name) : OpDef(name)
    {
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("t1").AttrType(OPTIONAL).Float(1.0);
        this->Attr("t2").AttrType(OPTIONAL).Float(0.5);
        this->Attr("t3").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MulSigmoid);
}  // namespace ops
