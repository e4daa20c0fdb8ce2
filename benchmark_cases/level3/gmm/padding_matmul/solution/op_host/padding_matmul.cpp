#include "register/op_def_registry.h"
#include "matmul_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    auto* t = context->GetTilingData<matmul_tiling::MatmulTiling>();
    const uint32_t m = a.GetDim(0), k = a.GetDim(1), n = b.GetDim(1);
    const uint32_t cores = matmul_tiling::Plan(*t, 1, m, n, k);
    context->SetBlockDim(cores);
    // Workspace: A with rows of align16(K) halves, B with rows of align16(N) halves.
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = (static_cast<size_t>(m) * matmul_tiling::Align16(k) + static_cast<size_t>(k) * matmul_tiling::Align16(n)) * 2 +
            platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class PaddingMatmul : public OpDef {
public:
    explicit PaddingMatmul(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(PaddingMatmul);
}  // namespace ops
