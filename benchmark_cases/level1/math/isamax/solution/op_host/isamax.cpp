#include "isamax_tiling.h"
#include "reduce_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    return L1ReduceTiling(context, n, sizeof(float), 0);
}
}  // namespace optiling

namespace ops {
class Isamax : public OpDef {
public:
    explicit Isamax(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Isamax);
}  // namespace ops
