#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct FaTiling {
    uint32_t batch, heads, s1, s2, dim;
    float scale;
};

constexpr uint32_t TILE_M = 128;
constexpr uint32_t MAX_S2 = 8192;   // one score row must fit the unified buffer

static uint64_t Align512(uint64_t b) { return (b + 511) / 512 * 512; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& q = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& k = context->GetInputShape(1)->GetStorageShape();
    const float* scale = context->GetAttrs()->GetFloat(0);
    const int64_t* heads = context->GetAttrs()->GetInt(1);
    if (q.GetDimNum() != 3 || k.GetDimNum() != 3 || heads == nullptr || *heads <= 0) return ge::GRAPH_FAILED;
    auto* t = context->GetTilingData<FaTiling>();
    t->batch = q.GetDim(0);
    t->s1 = q.GetDim(1);
    t->s2 = k.GetDim(1);
    t->heads = static_cast<uint32_t>(*heads);
    t->dim = q.GetDim(2) / t->heads;
    t->scale = scale == nullptr ? 1.0f : *scale;
    if (t->dim * t->heads != q.GetDim(2) || t->s2 == 0 || t->s2 > MAX_S2) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t units = static_cast<uint64_t>(t->batch) * t->heads * ((t->s1 + TILE_M - 1) / TILE_M);
    const uint32_t cores = units < platform.GetCoreNumAic() ? (units == 0 ? 1 : units) : platform.GetCoreNumAic();
    context->SetBlockDim(cores);
    // Two workspace slots per AI core: scores (float), probabilities (half), P V (float).
    const uint64_t slot = Align512(TILE_M * t->s2 * 4ull) + Align512(TILE_M * ((t->s2 + 15) / 16 * 16) * 2ull) +
                          Align512(TILE_M * t->dim * 4ull);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = cores * 2 * slot + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class FlashAttentionScoreWithLargeHeadDim : public OpDef {
public:
    explicit FlashAttentionScoreWithLargeHeadDim(const char* name) : OpDef(name)
    {
        this->Input("query").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("key").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("value").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("softmax_max").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("softmax_sum").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("attention_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Attr("scale_value").AttrType(OPTIONAL).Float(1.0);
        this->Attr("head_num").AttrType(REQUIRED).Int();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(FlashAttentionScoreWithLargeHeadDim);
}  // namespace ops
