#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(MulSigmoidMulAddCustom, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    // Four inputs + one output streamed; one float32 scratch plane for the sigmoid denominator.
    return L2aElementwiseTiling(context, 1, n, {5, 1});
}
}  // namespace optiling

namespace ops {
class MulSigmoidMulAddCustom : public OpDef {
public:
    explicit MulSigmoidMulAddCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("a")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("c")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MulSigmoidMulAddCustom);
}  // namespace ops
