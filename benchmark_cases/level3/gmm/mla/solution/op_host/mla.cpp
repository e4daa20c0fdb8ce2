#include <cmath>

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_BATCH = 64;
constexpr uint32_t TILE_M = 128;
constexpr uint32_t MAX_KV = 8192;   // one score row must fit the unified buffer

struct MlaTiling {
    uint32_t batch, heads, dn, dr, blockSize, maxBlocks, maxKv, numBlocks;
    float scale;
    uint32_t qStart[MAX_BATCH], qLen[MAX_BATCH], kvLen[MAX_BATCH];
    uint32_t firstUnit[MAX_BATCH + 1];
};

static uint64_t Align512(uint64_t b) { return (b + 511) / 512 * 512; }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& qn = context->GetInputShape(0)->GetStorageShape();   // [T, N, Dn]
    const gert::Shape& qr = context->GetInputShape(1)->GetStorageShape();   // [T, N, Dr]
    const gert::Shape& kv = context->GetInputShape(2)->GetStorageShape();   // [blocks, blockSize, Dn]
    const gert::Shape& bt = context->GetInputShape(4)->GetStorageShape();   // [B, maxBlocks]
    const auto* qs = context->GetAttrs()->GetListInt(0);
    const auto* ks = context->GetAttrs()->GetListInt(1);
    if (qs == nullptr || ks == nullptr || qn.GetDimNum() != 3 || kv.GetDimNum() != 3 || bt.GetDimNum() != 2) {
        return ge::GRAPH_FAILED;
    }
    auto* t = context->GetTilingData<MlaTiling>();
    t->batch = static_cast<uint32_t>(qs->GetSize());
    if (t->batch == 0 || t->batch > MAX_BATCH || ks->GetSize() != t->batch || bt.GetDim(0) != t->batch) {
        return ge::GRAPH_FAILED;
    }
    t->heads = qn.GetDim(1);
    t->dn = qn.GetDim(2);
    t->dr = qr.GetDim(2);
    t->blockSize = kv.GetDim(1);
    t->maxBlocks = bt.GetDim(1);
    t->numBlocks = kv.GetDim(0);
    t->scale = 1.0f / std::sqrt(static_cast<float>(t->dn + t->dr));
    t->maxKv = 1;
    uint32_t tokens = 0;
    t->firstUnit[0] = 0;
    for (uint32_t b = 0; b < t->batch; ++b) {
        t->qStart[b] = tokens;
        t->qLen[b] = static_cast<uint32_t>(qs->GetData()[b]);
        t->kvLen[b] = static_cast<uint32_t>(ks->GetData()[b]);
        tokens += t->qLen[b];
        if (t->kvLen[b] > t->maxKv) t->maxKv = t->kvLen[b];
        const uint32_t rows = t->qLen[b] * t->heads;
        t->firstUnit[b + 1] = t->firstUnit[b] + (rows + TILE_M - 1) / TILE_M;
    }
    if (t->maxKv > MAX_KV || tokens != qn.GetDim(0)) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t units = t->firstUnit[t->batch];
    const uint32_t cores = units == 0 ? 1 : (units < platform.GetCoreNumAic() ? units : platform.GetCoreNumAic());
    context->SetBlockDim(cores);
    const uint64_t slot = Align512(TILE_M * t->maxKv * 4ull) + Align512(TILE_M * ((t->maxKv + 15) / 16 * 16) * 2ull) +
                          Align512(TILE_M * t->dn * 4ull);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = cores * 2 * slot + platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Mla : public OpDef {
public:
    explicit Mla(const char* name) : OpDef(name)
    {
        this->Input("query_nope").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("query_rope").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("kv_nope_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("kv_rope_cache").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("block_tables").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("q_seqlen_list").AttrType(REQUIRED).ListInt();
        this->Attr("k_seqlen_list").AttrType(REQUIRED).ListInt();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Mla);
}  // namespace ops
