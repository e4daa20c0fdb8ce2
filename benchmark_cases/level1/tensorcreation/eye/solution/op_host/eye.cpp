#include "eye_tiling.h"
#include "fill_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{

    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t rows = static_cast<uint32_t>(shape.GetDim(rank - 2));
    const uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    return L1FillTiling(context, shape.GetShapeSize(), L1DtypeBytes(context->GetInputDesc(0)->GetDataType()), 0,
                        rows, cols);
}
}  // namespace optiling

namespace ops {
class Eye : public OpDef {
public:
    explicit Eye(const char* name) : OpDef(name)
    {
        this->Input("x")
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
OP_ADD(Eye);
}  // namespace ops
