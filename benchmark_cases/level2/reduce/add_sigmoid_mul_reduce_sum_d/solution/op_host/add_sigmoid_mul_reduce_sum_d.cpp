#include "add_sigmoid_mul_reduce_sum_d_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const uint64_t d = x.GetDim(x.GetDimNum() - 1);
    const uint64_t rows = d == 0 ? 0 : x.GetShapeSize() / d;
    // Rows of D elements over the cores (the row-norm tiling): x1, x2, x3 queued per row, one
    // 64-byte result slot per row (counted as an output row of two float32 blocks' worth).
    return L2bRowNormTiling(context, rows, d, L2bRowNormBuffers{3, 0, 0, 0, 0}, 0.0f);
}
}  // namespace optiling

namespace ops {
class AddSigmoidMulReduceSumD : public OpDef {
public:
    explicit AddSigmoidMulReduceSumD(const char* name) : OpDef(name)
    {
        this->Input("x1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x3")
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
OP_ADD(AddSigmoidMulReduceSumD);
}  // namespace ops
