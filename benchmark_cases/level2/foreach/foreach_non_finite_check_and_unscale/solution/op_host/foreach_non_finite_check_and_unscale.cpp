#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachNonFiniteCheckAndUnscale, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 3});  // 1 list(s) streamed, 3 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachNonFiniteCheckAndUnscale : public OpDef {
public:
    explicit ForeachNonFiniteCheckAndUnscale(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"scaled_grads"}, {{"found_inf", ge::DT_FLOAT}, {"inv_scale", ge::DT_FLOAT}}, "scaled_grads_out");
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
