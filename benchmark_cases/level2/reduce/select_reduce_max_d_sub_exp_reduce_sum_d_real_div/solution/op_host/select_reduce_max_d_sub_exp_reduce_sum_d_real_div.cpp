#include "select_reduce_max_d_sub_exp_reduce_sum_d_real_div_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // Input 1 (x) gives the dtype and the rows; the bool mask has the same shape.
    const gert::Shape& x = context->GetInputShape(1)->GetStorageShape();
    const uint64_t d = x.GetDim(x.GetDimNum() - 1);
    const uint64_t rows = d == 0 ? 0 : x.GetShapeSize() / d;
    // mask and x queued in, y queued out; rows kept at a stride of 32 elements so that the uint8
    // mask, its half and float32 conversions and x share one row layout.
    return L2bRowNormTiling(context, rows, d, L2bRowNormBuffers{2, 1, 0, 0, 0}, 0.0f, 1.0f, 32, 1);
}
}  // namespace optiling

namespace ops {
class SelectReduceMaxDSubExpReduceSumDRealDiv : public OpDef {
public:
    explicit SelectReduceMaxDSubExpReduceSumDRealDiv(const char* name) : OpDef(name)
    {
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
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
OP_ADD(SelectReduceMaxDSubExpReduceSumDRealDiv);
}  // namespace ops
