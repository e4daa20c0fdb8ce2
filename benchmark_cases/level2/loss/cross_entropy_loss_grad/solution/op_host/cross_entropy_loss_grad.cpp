#include "row_softmax_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(CrossEntropyLossGrad, L2a2XentTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // Rows are log_prob (input 1). Queued row planes: log_prob and x_grad; float32 plane: the
    // softmax (narrow types only: float32 data is computed in the output buffer).
    return L2a2XentTiling(context, 1, L2a2XentBuffers{2, 1, 0});
}
}  // namespace optiling

namespace ops {
class CrossEntropyLossGrad : public OpDef {
public:
    explicit CrossEntropyLossGrad(const char* name) : OpDef(name)
    {
        this->Input("grad_loss")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("log_prob")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("target")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("x_grad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("reduction").AttrType(OPTIONAL).String("mean");
        this->Attr("ignore_index").AttrType(OPTIONAL).Int(-100);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CrossEntropyLossGrad);
}  // namespace ops
