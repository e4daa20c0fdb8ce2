#include <algorithm>

#include "inplace_fused_matmul_softmax_grad_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MIN_ROWS_PER_CORE = 4;  // a core reloads values per batch: keep a few rows each

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const gert::Shape& ys = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& gs = context->GetInputShape(1)->GetStorageShape();
    const size_t rank = ys.GetDimNum();
    if (rank < 2) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t n = static_cast<uint32_t>(ys.GetDim(rank - 1));
    const uint32_t m = static_cast<uint32_t>(ys.GetDim(rank - 2));
    const uint32_t k = static_cast<uint32_t>(gs.GetDim(gs.GetDimNum() - 1));
    if (k == 0 || k % 8 != 0 || k > 64 || static_cast<uint64_t>(n) * k > 16384) {
        return ge::GRAPH_FAILED;  // outside the documented limits
    }
    const uint32_t rows = static_cast<uint32_t>(ys.GetShapeSize() / n);
    uint32_t cores = (rows + MIN_ROWS_PER_CORE - 1) / MIN_ROWS_PER_CORE;
    cores = std::max<uint32_t>(1, std::min(cores, coreNum));

    InplaceFusedMatmulSoftmaxGradTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_rowsPerCore(rows / cores);
    tiling.set_bigCoreNum(rows % cores);
    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class InplaceFusedMatmulSoftmaxGrad : public OpDef {
public:
    explicit InplaceFusedMatmulSoftmaxGrad(const char* name) : OpDef(name)
    {
        this->Input("softmax_output")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("grad_output")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(InplaceFusedMatmulSoftmaxGrad);
}  // namespace ops
