#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachDivScalar, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 1});  // 1 list(s) streamed, 1 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachDivScalar : public OpDef {
public:
    explicit ForeachDivScalar(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {{"scalar", ge::DT_FLOAT}});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachDivScalar);
}  // namespace ops
