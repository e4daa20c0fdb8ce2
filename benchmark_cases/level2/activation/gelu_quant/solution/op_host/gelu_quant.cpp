#include "row_softmax_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(GeluQuant, L2a2XentTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    // x viewed as rows x H. Rows are laid out at a stride of whole 32-byte blocks of int8 (the
    // narrowest plane), so the tiling is computed in byte units: queued x (typeSize bytes) and y
    // (1 byte) per element, two float32 planes (gelu and |gelu|).
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    if (rank == 0) {
        return ge::GRAPH_FAILED;
    }
    uint64_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) {
        rows *= static_cast<uint64_t>(shape.GetDim(i));
    }
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    L2a2XentTilingData tiling;
    if (typeSize == 0 || !L2a2RowTiling(context, rows, static_cast<uint64_t>(shape.GetDim(rank - 1)), 1,
                                        L2a2XentBuffers{typeSize + 1, 0, 2}, tiling)) {
        return ge::GRAPH_FAILED;
    }
    L2a2SaveTiling(context, tiling);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GeluQuant : public OpDef {
public:
    explicit GeluQuant(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT8, ge::DT_INT8, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out_scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GeluQuant);
}  // namespace ops
