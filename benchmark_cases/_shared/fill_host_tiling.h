// fill_host_tiling.h -- host tiling of the level-1 tensor-creation solutions (kernel base: fill_kernel.h).
#ifndef FILL_HOST_TILING_H
#define FILL_HOST_TILING_H
#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "fill_tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
inline uint32_t L1DtypeBytes(ge::DataType dtype)
{
    uint32_t size = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, size);
    return size;
}

// Output-only kernels: the time is the MTE3 write of the output, so every core that gets at least
// 16 KiB to write is worth starting. `planes`: float32 scratch planes per element (Arange).
inline ge::graphStatus L1FillTiling(gert::TilingContext* context, uint64_t totalLength, uint32_t typeSize,
                                    uint32_t planes, uint32_t rows = 0, uint32_t cols = 0)
{
    constexpr uint32_t kUnit = 256;
    constexpr uint32_t kBufferNum = 2;
    constexpr uint64_t kMinBytesPerCore = 16384;
    constexpr uint32_t kMaxTile = 16384;
    if (totalLength == 0 || totalLength > UINT32_MAX || typeSize == 0) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t tile = static_cast<uint32_t>((ubSize - 1024) / (uint64_t(kBufferNum) * typeSize + planes * 4ULL));
    tile = std::min<uint32_t>(tile / kUnit * kUnit, kMaxTile);
    const uint64_t units = (totalLength + kUnit - 1) / kUnit;
    uint64_t cores = (totalLength * typeSize + kMinBytesPerCore - 1) / kMinBytesPerCore;
    cores = std::max<uint64_t>(1, std::min<uint64_t>({cores, coreNum, units}));

    L1FillTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_unitsPerCore(static_cast<uint32_t>(units / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(units % cores));
    tiling.set_tileLength(tile);
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
#endif  // FILL_HOST_TILING_H
