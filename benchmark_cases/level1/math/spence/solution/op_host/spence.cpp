#include "spence_tiling.h"
#include "elementwise_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// float32 branch-free evaluation; eight float32 planes.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t size = L1DtypeSize(dtype);
    // x (float32 copy for narrow dtypes), x1, w, P, Q, temp, constant and mask planes.
    const uint32_t planes = 8;
    (void)dtype;
    return L1ElementwiseTiling(context, total, {size, size, planes * 4});
}
}  // namespace optiling

namespace ops {
class Spence : public OpDef {
public:
    explicit Spence(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Spence);
}  // namespace ops
