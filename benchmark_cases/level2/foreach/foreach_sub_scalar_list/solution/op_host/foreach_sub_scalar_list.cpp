#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachSubScalarList, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 0});  // 1 list(s) streamed, 0 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachSubScalarList : public OpDef {
public:
    explicit ForeachSubScalarList(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {{"scalars", ge::DT_FLOAT}});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachSubScalarList);
}  // namespace ops
