#include <algorithm>

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct GemvTiling {
    uint32_t m;
    uint32_t n;
    uint32_t rowsPerCore;
    float alpha;
    float beta;
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    auto* t = context->GetTilingData<GemvTiling>();
    t->m = a.GetDim(0);
    t->n = a.GetDim(1);
    const uint32_t cores = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv();
    // Whole 32-byte blocks of the output per core (8 floats), so no two cores write one block.
    t->rowsPerCore = std::max<uint32_t>(8, (t->m + cores * 8 - 1) / (cores * 8) * 8);
    t->alpha = *context->GetAttrs()->GetFloat(0);
    t->beta = *context->GetAttrs()->GetFloat(1);
    context->SetBlockDim((t->m + t->rowsPerCore - 1) / t->rowsPerCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Gemv : public OpDef {
public:
    explicit Gemv(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("beta").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Gemv);
}  // namespace ops
