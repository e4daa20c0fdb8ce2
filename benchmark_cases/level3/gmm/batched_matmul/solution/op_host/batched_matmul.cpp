#include <algorithm>

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BatchedMatmulTilingData)
TILING_DATA_FIELD_DEF(uint32_t, batch);
TILING_DATA_FIELD_DEF(uint32_t, m);
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(uint32_t, k);
TILING_DATA_FIELD_DEF(uint32_t, tileM);
TILING_DATA_FIELD_DEF(uint32_t, tileN);
TILING_DATA_FIELD_DEF(uint32_t, tilesM);
TILING_DATA_FIELD_DEF(uint32_t, tilesN);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BatchedMatmul, BatchedMatmulTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    const uint32_t batch = a.GetDim(0), m = a.GetDim(1), k = a.GetDim(2), n = b.GetDim(2);
    const uint32_t tileM = std::min<uint32_t>((m + 15) / 16 * 16, 256);
    const uint32_t tileN = std::min<uint32_t>((n + 15) / 16 * 16, 256);
    auto dt = static_cast<matmul_tiling::DataType>(context->GetInputDesc(0)->GetDataType());
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    matmul_tiling::MatmulApiTiling api(platform);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, dt);
    api.SetOrgShape(m, n, k);
    api.SetShape(std::min(tileM, m), std::min(tileN, n), k);
    api.SetBias(false);
    BatchedMatmulTilingData tiling;
    if (api.GetTiling(tiling.cube) == -1) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_batch(batch);
    tiling.set_m(m);
    tiling.set_n(n);
    tiling.set_k(k);
    tiling.set_tileM(tileM);
    tiling.set_tileN(tileN);
    tiling.set_tilesM((m + tileM - 1) / tileM);
    tiling.set_tilesN((n + tileN - 1) / tileN);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // One work item per (batch, tile); two vector cores per AI core issue them.
    const uint64_t items = static_cast<uint64_t>(batch) * tiling.get_tilesM() * tiling.get_tilesN();
    context->SetBlockDim(static_cast<uint32_t>(std::min<uint64_t>(platform.GetCoreNumAic(), (items + 1) / 2)));
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class BatchedMatmul : public OpDef {
public:
    explicit BatchedMatmul(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BatchedMatmul);
}  // namespace ops
