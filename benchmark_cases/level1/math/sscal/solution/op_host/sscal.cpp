#include "sscal_tiling.h"
#include "elementwise_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// float32 vector scaled in place in UB; scalar0 = alpha.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t size = L1DtypeSize(dtype);
    const uint32_t planes = dtype == ge::DT_FLOAT ? 0u : 1u;
    const float scalar = *context->GetAttrs()->GetFloat(0);  // attr alpha
    return L1ElementwiseTiling(context, total, {size, size, planes * 4}, 0, scalar);
}
}  // namespace optiling

namespace ops {
class Sscal : public OpDef {
public:
    explicit Sscal(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(REQUIRED).Float();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Sscal);
}  // namespace ops
