#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachZeroInplace, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{0, 0});  // 0 list(s) streamed, 0 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachZeroInplace : public OpDef {
public:
    explicit ForeachZeroInplace(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachZeroInplace);
}  // namespace ops
