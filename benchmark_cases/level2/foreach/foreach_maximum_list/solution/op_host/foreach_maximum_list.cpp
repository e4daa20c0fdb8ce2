#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachMaximumList, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{2, 0});  // 2 list(s) streamed, 0 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachMaximumList : public OpDef {
public:
    explicit ForeachMaximumList(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x1", "x2"}, {});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachMaximumList);
}  // namespace ops
