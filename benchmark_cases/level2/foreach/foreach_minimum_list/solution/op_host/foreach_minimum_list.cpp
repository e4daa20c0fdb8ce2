#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachMinimumList, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{2, 0});  // 2 list(s) streamed, 0 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachMinimumList : public OpDef {
public:
    explicit ForeachMinimumList(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x1", "x2"}, {});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachMinimumList);
}  // namespace ops
