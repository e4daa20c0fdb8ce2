#include <algorithm>

#include "gather_v3_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t SLAB_MAX = 16384;  // elements of one slab x[o, :, ...] kept in UB
constexpr uint32_t CHUNK_MAX = 4096;  // index elements per step

// x is seen as [outer, D, inner], index and y as [outer, K, inner]. Index rows (o, k) of `inner`
// elements are spread over the cores (big cores one row more).
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& is = context->GetInputShape(1)->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(xs.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetInt(0);
    if (dim < 0) {
        dim += rank;
    }
    if (rank == 0 || dim < 0 || dim >= rank || static_cast<int64_t>(is.GetDimNum()) != rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= static_cast<uint64_t>(xs.GetDim(i));
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= static_cast<uint64_t>(xs.GetDim(i));
    }
    const uint64_t gatherDim = static_cast<uint64_t>(xs.GetDim(dim));
    const uint64_t indexDim = static_cast<uint64_t>(is.GetDim(dim));
    if (gatherDim * inner > SLAB_MAX) {
        return ge::GRAPH_FAILED;  // documented limit: one slab must fit in UB
    }
    const uint64_t rows = outer * indexDim;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t coreNum = platform.GetCoreNumAiv();
    const uint64_t work = rows * inner;
    uint64_t cores = std::max<uint64_t>(1, std::min<uint64_t>({(work + 2047) / 2048, coreNum, rows}));
    const uint32_t chunk = inner >= CHUNK_MAX ? CHUNK_MAX : static_cast<uint32_t>(CHUNK_MAX / inner * inner);

    GatherV3TilingData tiling;
    tiling.set_gatherDim(static_cast<uint32_t>(gatherDim));
    tiling.set_indexDim(static_cast<uint32_t>(indexDim));
    tiling.set_inner(static_cast<uint32_t>(inner));
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rows / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(rows % cores));
    tiling.set_chunk(chunk);
    tiling.set_slabCapacity(SLAB_MAX);
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GatherV3 : public OpDef {
public:
    explicit GatherV3(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("index")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT64, ge::DT_INT32, ge::DT_INT64, ge::DT_INT32, ge::DT_INT64, ge::DT_INT32, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GatherV3);
}  // namespace ops
