#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachAddScalar, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 0});  // 1 list(s) streamed, 0 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachAddScalar : public OpDef {
public:
    explicit ForeachAddScalar(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {{"scalar", ge::DT_FLOAT}});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachAddScalar);
}  // namespace ops
