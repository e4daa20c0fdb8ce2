#include "less_tiling.h"
#include "elementwise_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// two inputs, one byte out per element.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t size = L1DtypeSize(dtype);
    // bfloat16 is widened to float32 (two planes); then a mask plane and a 0/1 plane.
    const uint32_t planes = dtype == ge::DT_BF16 ? 4u : 2u;
    return L1ElementwiseTiling(context, total, {2 * size, 1, planes * 4});
}
}  // namespace optiling

namespace ops {
class Less : public OpDef {
public:
    explicit Less(const char* name) : OpDef(name)
    {
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Less);
}  // namespace ops
