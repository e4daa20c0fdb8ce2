#include "complex_mat_dot_tiling.h"
#include "elementwise_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// complex64 data is processed as interleaved float32: 2 * m * n floats. UB per float: x, y, z queues
// double-buffered (24 bytes) + 3 gathered planes, 3 uint32 offset tables and a sign plane (28 bytes).
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t complexCount = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    return L1ElementwiseTiling(context, 2 * complexCount, {8, 4, 28});
}
}  // namespace optiling

namespace ops {
class ComplexMatDot : public OpDef {
public:
    explicit ComplexMatDot(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_COMPLEX64})
            .Format({ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_COMPLEX64})
            .Format({ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_COMPLEX64})
            .Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ComplexMatDot);
}  // namespace ops
