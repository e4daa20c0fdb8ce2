#include "register/op_def_registry.h"
#include "matmul_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    auto* t = context->GetTilingData<matmul_tiling::MatmulTiling>();
    const uint32_t cores = matmul_tiling::Plan(*t, 1, a.GetDim(0), b.GetDim(1), a.GetDim(1));
    context->SetBlockDim(cores);
    // Two float tile slots per AI core for the cube -> vector hand-over, plus the library's share.
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(cores) * 2 * 128 * 256 * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulAdd : public OpDef {
public:
    explicit MatmulAdd(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulAdd);
}  // namespace ops
