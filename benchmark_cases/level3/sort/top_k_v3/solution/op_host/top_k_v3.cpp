#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct TopKTiling {
    uint32_t rows;     // rows of the flattened input (product of all but the last dim)
    uint32_t n;        // length of the last dim
    uint32_t largest;  // 1: the k largest, 0: the k smallest
};

constexpr uint32_t MAX_N = 16384;  // one row must fit the unified buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = x.GetDimNum();
    if (rank == 0) return ge::GRAPH_FAILED;
    auto* t = context->GetTilingData<TopKTiling>();
    t->n = static_cast<uint32_t>(x.GetDim(rank - 1));
    uint64_t rows = 1;
    for (size_t i = 0; i + 1 < rank; ++i) rows *= x.GetDim(i);
    t->rows = static_cast<uint32_t>(rows);
    const bool* largest = context->GetAttrs()->GetBool(1);
    t->largest = (largest == nullptr || *largest) ? 1 : 0;
    if (t->n == 0 || t->n > MAX_N) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    context->SetBlockDim(t->rows == 0 ? 1 : (t->rows < cores ? t->rows : cores));
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class TopKV3 : public OpDef {
public:
    explicit TopKV3(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("k").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("indices").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("sorted").AttrType(OPTIONAL).Bool(true);
        this->Attr("largest").AttrType(OPTIONAL).Bool(true);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(TopKV3);
}  // namespace ops
