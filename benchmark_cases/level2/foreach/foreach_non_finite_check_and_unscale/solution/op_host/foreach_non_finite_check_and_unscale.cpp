#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachNonFiniteCheckAndUnscale, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 3});  // lists streamed, float32 scratch planes
}
}  // namespace optiling

namespace ops {
class ForeachNonFiniteCheckAndUnscale : public OpDef {
public:
    explicit ForeachNonFiniteCheckAndUnscale(const char* name) : OpDef(name)
    {
        this->Input("scaled_grads")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("found_inf")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("inv_scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("scaled_grads_out")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("found_inf_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachNonFiniteCheckAndUnscale);
}  // namespace ops
