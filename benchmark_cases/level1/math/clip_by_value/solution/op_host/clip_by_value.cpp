#include "clip_by_value_tiling.h"
#include "elementwise_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// mode 1: one-element bounds; mode 0: bounds shaped like x.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t size = L1DtypeSize(dtype);
    const bool scalarBounds = context->GetInputShape(1)->GetStorageShape().GetShapeSize() == 1 &&
                              context->GetInputShape(2)->GetStorageShape().GetShapeSize() == 1;
    const uint32_t inputs = scalarBounds ? 1u : 3u;
    const uint32_t planes = dtype == ge::DT_BF16 ? inputs : 0u;  // bfloat16 is clamped in float32
    return L1ElementwiseTiling(context, total, {inputs * size, size, planes * 4}, scalarBounds ? 1u : 0u);
}
}  // namespace optiling

namespace ops {
class ClipByValue : public OpDef {
public:
    explicit ClipByValue(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("clip_min")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("clip_max")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClipByValue);
}  // namespace ops
