#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Swish, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    return L2aElementwiseTiling(context, 1, n, {2, 0}, *context->GetAttrs()->GetFloat(0));
}
}  // namespace optiling

namespace ops {
class Swish : public OpDef {
public:
    explicit Swish(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Swish);
}  // namespace ops
