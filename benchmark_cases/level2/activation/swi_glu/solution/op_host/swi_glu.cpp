#include "activation_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(SwiGlu, L2aEltTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    uint64_t rows = 0;
    uint64_t cols = 0;
    if (!L2aSplitDims(context->GetInputShape(0)->GetStorageShape(), *context->GetAttrs()->GetInt(0), rows, cols)) {
        return ge::GRAPH_FAILED;  // the split dimension must exist and have an even size
    }
    return L2aElementwiseTiling(context, rows, cols, {3, 0});
}
}  // namespace optiling

namespace ops {
class SwiGlu : public OpDef {
public:
    explicit SwiGlu(const char* name) : OpDef(name)
    {
        this->Input("x")
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
OP_ADD(SwiGlu);
}  // namespace ops
