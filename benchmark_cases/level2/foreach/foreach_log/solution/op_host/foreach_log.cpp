#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachLog, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 0});  // lists streamed, float32 scratch planes
}
}  // namespace optiling

namespace ops {
class ForeachLog : public OpDef {
public:
    explicit ForeachLog(const char* name) : OpDef(name)
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
OP_ADD(ForeachLog);
}  // namespace ops
