#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_GROUPS = 64;

struct GroupGemmTiling {
    uint32_t groups;
    uint32_t m[MAX_GROUPS], k[MAX_GROUPS], n[MAX_GROUPS];
};

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const auto* attrs = context->GetAttrs();
    const auto* ms = attrs->GetListInt(0);
    const auto* ks = attrs->GetListInt(1);
    const auto* ns = attrs->GetListInt(2);
    if (ms == nullptr || ks == nullptr || ns == nullptr) return ge::GRAPH_FAILED;
    const size_t groups = ms->GetSize();
    if (groups == 0 || groups > MAX_GROUPS || ks->GetSize() != groups || ns->GetSize() != groups) {
        return ge::GRAPH_FAILED;
    }
    auto* t = context->GetTilingData<GroupGemmTiling>();
    t->groups = static_cast<uint32_t>(groups);
    for (size_t g = 0; g < groups; ++g) {
        t->m[g] = static_cast<uint32_t>(ms->GetData()[g]);
        t->k[g] = static_cast<uint32_t>(ks->GetData()[g]);
        t->n[g] = static_cast<uint32_t>(ns->GetData()[g]);
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic();
    context->SetBlockDim(cores);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = static_cast<size_t>(cores) * 2 * 128 * 256 * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GroupGemm : public OpDef {
public:
    explicit GroupGemm(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("alpha").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("d").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("m_list").AttrType(REQUIRED).ListInt();
        this->Attr("k_list").AttrType(REQUIRED).ListInt();
        this->Attr("n_list").AttrType(REQUIRED).ListInt();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupGemm);
}  // namespace ops
