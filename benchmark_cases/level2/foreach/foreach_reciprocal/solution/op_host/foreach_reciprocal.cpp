#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachReciprocal, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 1});  // 1 list(s) streamed, 1 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachReciprocal : public OpDef {
public:
    explicit ForeachReciprocal(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachReciprocal);
}  // namespace ops
