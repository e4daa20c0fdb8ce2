#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(Cross, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    int64_t dim = *context->GetAttrs()->GetInt(0);
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    uint64_t rows = 0;
    uint64_t cols = 0;
    if (dim < -rank || dim >= rank || shape.GetDim(dim < 0 ? dim + rank : dim) != 3 ||
        !L2aSplitDims(shape, dim, rows, cols, 3)) {
        return ge::GRAPH_FAILED;  // the cross-product dimension must exist and have size 3
    }
    return L2aElementwiseTiling(context, rows, cols, {9, 1});
}
}  // namespace optiling

namespace ops {
class Cross : public OpDef {
public:
    explicit Cross(const char* name) : OpDef(name)
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
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(-1);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Cross);
}  // namespace ops
