#include <algorithm>

#include "register/op_def_registry.h"
#include "matmul_tiling.h"

namespace optiling {
struct SplitkTiling {
    matmul_tiling::MatmulTiling mm;
    uint32_t splits;    // K ranges per output tile
    uint32_t kSplit;    // K elements per range (a multiple of 256)
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    auto* t = context->GetTilingData<SplitkTiling>();
    const uint32_t m = a.GetDim(0), k = a.GetDim(1), n = b.GetDim(1);
    matmul_tiling::Plan(t->mm, 1, m, n, k);
    const uint32_t cores = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic();
    const uint32_t tiles = t->mm.tilesM * t->mm.tilesN;
    // Enough K ranges to give every core work, none shorter than one L1 chunk (256).
    const uint32_t chunks = (k + 255) / 256;
    t->splits = std::max<uint32_t>(1, std::min<uint32_t>(chunks, (cores + tiles - 1) / tiles));
    t->kSplit = (chunks + t->splits - 1) / t->splits * 256;
    t->splits = (k + t->kSplit - 1) / t->kSplit;
    context->SetBlockDim(std::min<uint32_t>(cores, tiles * t->splits));
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(m) * n * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SplitkMatmul : public OpDef {
public:
    explicit SplitkMatmul(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SplitkMatmul);
}  // namespace ops
