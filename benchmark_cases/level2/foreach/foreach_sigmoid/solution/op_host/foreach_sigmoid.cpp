#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachSigmoid, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 0});  // lists streamed, float32 scratch planes
}
}  // namespace optiling

namespace ops {
class ForeachSigmoid : public OpDef {
public:
    explicit ForeachSigmoid(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachSigmoid);
}  // namespace ops
