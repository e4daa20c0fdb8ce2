#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t BUFFER_NUM = 2;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();

    uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, typeSize);
    // bfloat16 is computed in float32: two extra float32 buffers per element in UB.
    uint32_t computeBytes = (dtype == ge::DT_BF16) ? 3 * sizeof(float) : 0;

    uint32_t elemsPerBlock = BLOCK_BYTES / typeSize;
    uint32_t totalBlocks = (totalLength + elemsPerBlock - 1) / elemsPerBlock;
    // Small inputs stay on few cores: each core should move at least 4 KiB.
    uint32_t minBlocksPerCore = 4096 / BLOCK_BYTES;
    uint32_t useCores = (totalBlocks + minBlocksPerCore - 1) / minBlocksPerCore;
    useCores = std::max<uint32_t>(1, std::min(useCores, coreNum));

    // UB holds x, y, z queues double-buffered (+ float32 scratch for bfloat16).
    uint32_t bytesPerElem = 3 * BUFFER_NUM * typeSize + computeBytes;
    uint32_t tileLength = static_cast<uint32_t>((ubSize - 1024) / bytesPerElem);
    tileLength = tileLength / 256 * 256;  // whole vector repeats for every dtype
    tileLength = std::min<uint32_t>(tileLength, 16384);

    AddCustomTilingData tiling;
    tiling.set_bigCoreNum(totalBlocks % useCores);
    tiling.set_blocksPerCore(totalBlocks / useCores);
    tiling.set_tileLength(tileLength);
    tiling.set_totalLength(totalLength);
    context->SetBlockDim(useCores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddCustom);
}  // namespace ops
