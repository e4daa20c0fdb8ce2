#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachNorm, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 2, false, 0, true});  // x streamed, 2 reduce planes, no output list, partials
}
}  // namespace optiling

namespace ops {
class ForeachNorm : public OpDef {
public:
    explicit ForeachNorm(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {{"scalar", ge::DT_FLOAT}});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachNorm);
}  // namespace ops
