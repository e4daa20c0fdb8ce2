#include "icamin_tiling.h"
#include "reduce_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t n = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    // complex64 is reduced as 2n float32 values; planes: |re|+|im| and two Gather offset tables.
    return L1ReduceTiling(context, 2 * n, sizeof(float), 3);  // reduce_kernel.h kComplexArgPlanes
}
}  // namespace optiling

namespace ops {
class Icamin : public OpDef {
public:
    explicit Icamin(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_COMPLEX64})
            .Format({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32})
            .Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Icamin);
}  // namespace ops
