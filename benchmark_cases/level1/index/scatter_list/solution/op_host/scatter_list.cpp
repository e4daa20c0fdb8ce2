#include <algorithm>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "scatter_list_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// Work items are (tensor l, batch b) pairs: each is one contiguous block of U * D elements (rows
// indices[b] .. indices[b] + U - 1 of var[l][b] are contiguous), spread over the cores.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const size_t inputs = context->GetComputeNodeInputNum();  // L list tensors + indices + updates
    if (inputs < 3) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t tensors = inputs - 2;
    const gert::Shape& var = context->GetDynamicInputShape(0, 0)->GetStorageShape();
    const gert::Shape& upd = context->GetInputShape(inputs - 1)->GetStorageShape();
    if (var.GetDimNum() != 3 || upd.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t batch = var.GetDim(0);
    const uint64_t items = tensors * batch;
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(inputs - 1)->GetDataType(), typeSize);

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t tile = static_cast<uint32_t>((ubSize - 1024) / (2 * typeSize));
    tile = std::min<uint32_t>(tile / 256 * 256, 32768);
    const uint64_t bytes = items * upd.GetDim(2) * upd.GetDim(3) * typeSize;
    uint64_t cores = std::max<uint64_t>(1, std::min<uint64_t>({(bytes + 16383) / 16384, coreNum, items}));

    ScatterListTilingData tiling;
    tiling.set_batch(static_cast<uint32_t>(batch));
    tiling.set_seqLen(static_cast<uint32_t>(var.GetDim(1)));
    tiling.set_rowLen(static_cast<uint32_t>(var.GetDim(2)));
    tiling.set_updateRows(static_cast<uint32_t>(upd.GetDim(2)));
    tiling.set_itemsPerCore(static_cast<uint32_t>(items / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(items % cores));
    tiling.set_tileLength(tile);
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScatterList : public OpDef {
public:
    explicit ScatterList(const char* name) : OpDef(name)
    {
        this->Input("var")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("updates")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("var_out")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScatterList);
}  // namespace ops
