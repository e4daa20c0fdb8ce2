#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachAddcdivScalar, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{3, 0});  // 3 list(s) streamed, 0 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachAddcdivScalar : public OpDef {
public:
    explicit ForeachAddcdivScalar(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x1", "x2", "x3"}, {{"scalar", ge::DT_FLOAT}});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachAddcdivScalar);
}  // namespace ops
