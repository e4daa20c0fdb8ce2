#include "foreach_tiling.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ForeachRoundOffNumber, ForeachTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return ForeachTiling(context, ForeachUb{1, 1});  // 1 list(s) streamed, 1 float32 scratch plane(s)
}
}  // namespace optiling

namespace ops {
class ForeachRoundOffNumber : public OpDef {
public:
    explicit ForeachRoundOffNumber(const char* name) : OpDef(name)
    {
        ForeachParams(*this, {"x"}, {{"round_mode", ge::DT_INT8}});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachRoundOffNumber);
}  // namespace ops
