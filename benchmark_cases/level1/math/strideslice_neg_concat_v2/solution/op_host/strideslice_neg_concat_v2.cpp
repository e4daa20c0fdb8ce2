#include <algorithm>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "strideslice_neg_concat_v2_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_BLOCK_COUNT = 4095;  // DataCopyPad blockCount limit

// Work items are whole rows (batched rowsPerStep at a time) when a half row fits a UB region, else
// (row, column chunk) pairs; items are spread over the cores, big cores taking one more.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t rank = shape.GetDimNum();
    const uint64_t width = static_cast<uint64_t>(shape.GetDim(rank - 1));
    if (rank == 0 || width == 0 || width % 2 != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t rows = static_cast<uint64_t>(shape.GetShapeSize()) / width;
    const uint32_t half = static_cast<uint32_t>(width / 2);
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, typeSize);
    const uint32_t epb = BLOCK_BYTES / typeSize;

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    // Regions: 2 input halves + 2 output halves, double-buffered, + a float32 plane for bfloat16.
    const uint64_t bytesPerElem = 2ULL * 4 * typeSize + (dtype == ge::DT_BF16 ? 4 : 0);
    uint32_t tileElems = static_cast<uint32_t>((ubSize - 1024) / bytesPerElem);
    tileElems = std::min<uint32_t>(tileElems / 64 * 64, 8192);

    const uint32_t halfPadded = (half + epb - 1) / epb * epb;
    uint32_t chunkLen = half;
    uint32_t chunks = 1;
    uint32_t rowsPerStep = 1;
    uint64_t items = rows;
    if (halfPadded > tileElems) {
        chunkLen = tileElems;
        chunks = (half + chunkLen - 1) / chunkLen;
        items = rows * chunks;
    } else {
        rowsPerStep = std::min<uint32_t>(tileElems / halfPadded, MAX_BLOCK_COUNT);
    }
    const uint64_t bytes = rows * width * typeSize;
    uint64_t cores = (bytes + 16383) / 16384;
    cores = std::max<uint64_t>(1, std::min<uint64_t>({cores, coreNum, items}));

    StridesliceNegConcatV2TilingData tiling;
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_half(half);
    tiling.set_chunkLen(chunkLen);
    tiling.set_chunks(chunks);
    tiling.set_rowsPerStep(rowsPerStep);
    tiling.set_tileElems(tileElems);
    tiling.set_itemsPerCore(static_cast<uint32_t>(items / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(items % cores));
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class StridesliceNegConcatV2 : public OpDef {
public:
    explicit StridesliceNegConcatV2(const char* name) : OpDef(name)
    {
        this->Input("x")
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
OP_ADD(StridesliceNegConcatV2);
}  // namespace ops
