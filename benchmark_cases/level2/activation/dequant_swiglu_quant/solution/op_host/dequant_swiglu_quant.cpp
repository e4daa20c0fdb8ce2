#include "row_softmax_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(DequantSwigluQuant, L2a2XentTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // x viewed as tokens x 2H; the tiling works on rows of H (the output width). UB rows are at a
    // stride of whole 32-byte int8 blocks, so sizes are in byte units: queued x halves (2 x 4 bytes)
    // and y (1 byte) per element; float32 planes a, b and a scratch; weight_scale kept as two rows.
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank == 0 || shape.GetDim(rank - 1) % 2 != 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        rows *= static_cast<uint64_t>(shape.GetDim(i));
    }
    L2a2XentTilingData tiling;
    if (!L2a2RowTiling(context, rows, static_cast<uint64_t>(shape.GetDim(rank - 1) / 2), 1,
                       L2a2XentBuffers{9, 0, 3, 2}, tiling)) {
        return ge::GRAPH_FAILED;
    }
    L2a2SaveTiling(context, tiling);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class DequantSwigluQuant : public OpDef {
public:
    explicit DequantSwigluQuant(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Input("weight_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("activation_scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_INT8}).Format({ge::FORMAT_ND});
        this->Output("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(DequantSwigluQuant);
}  // namespace ops
