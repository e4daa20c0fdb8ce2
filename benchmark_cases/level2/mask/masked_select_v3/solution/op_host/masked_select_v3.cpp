#include <algorithm>

#include "masked_select_v3_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t UNIT = 256;              // elements per split unit: whole vector repeats, 32-byte aligned bits
constexpr uint32_t MIN_UNITS_PER_CORE = 16;  // at least 4096 elements per core (the prefix sync is not free)
constexpr uint32_t MAX_TILE = 8192;
constexpr uint32_t BITS_CACHE_ELEMS = 32768;  // mask bits of up to this many elements stay in UB (4 KiB)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);

    const uint32_t units = (total + UNIT - 1) / UNIT;
    uint32_t cores = (units + MIN_UNITS_PER_CORE - 1) / MIN_UNITS_PER_CORE;
    cores = std::max<uint32_t>(1, std::min(cores, coreNum));
    const uint32_t perCore = units / cores;
    const uint32_t big = units % cores;
    const uint32_t maxCoreElems = (perCore + (big ? 1 : 0)) * UNIT;

    // UB per tile element: mask (uint8, double-buffered), mask as half, x and y (double-buffered),
    // one bit of compare result; plus the bits cache and small slots.
    const uint32_t reserved = BITS_CACHE_ELEMS / 8 + 2048;
    const uint32_t bytesPerElem = 2 * 1 + 2 + 2 * typeSize + 2 * typeSize;
    uint32_t tile = static_cast<uint32_t>((ubSize - reserved) / (bytesPerElem + 1)) / UNIT * UNIT;
    tile = std::min<uint32_t>(tile, MAX_TILE);
    tile = std::min<uint32_t>(tile, maxCoreElems);
    const uint32_t tilesPerCore = (maxCoreElems + tile - 1) / tile;
    const uint32_t cacheBytes = tilesPerCore * tile / 8;
    const bool cache = cacheBytes <= BITS_CACHE_ELEMS / 8;

    MaskedSelectV3TilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_unitsPerCore(perCore);
    tiling.set_bigCoreNum(big);
    tiling.set_tileElems(tile);
    tiling.set_cacheBits(cache ? 1 : 0);
    tiling.set_cacheBytes(cache ? cacheBytes : 0);
    context->SetBlockDim(cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    // System workspace for SyncAll + one 32-byte count slot per core.
    workspace[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(cores) * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MaskedSelectV3 : public OpDef {
public:
    explicit MaskedSelectV3(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mask")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MaskedSelectV3);
}  // namespace ops
