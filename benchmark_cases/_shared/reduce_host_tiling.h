// reduce_host_tiling.h -- host tiling of the level-1 global reductions (kernel base: reduce_kernel.h).
#ifndef REDUCE_HOST_TILING_H
#define REDUCE_HOST_TILING_H
#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "reduce_tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
// totalLength: elements of the kernel's view of x (complex64: 2n floats); typeSize: bytes per element;
// planes: float32 scratch planes per element; maxTile: cap from the operator's repeat limits.
inline ge::graphStatus L1ReduceTiling(gert::TilingContext* context, uint64_t totalLength, uint32_t typeSize,
                                      uint32_t planes, uint32_t maxTile = 16384)
{
    constexpr uint32_t kUnit = 256;
    constexpr uint32_t kBufferNum = 2;
    constexpr uint64_t kFixedUb = 4096 * 4 + 48 * 32 + 1024;  // work area, workspace slots, reserve
    constexpr uint64_t kMinBytesPerCore = 16384;
    if (totalLength == 0 || totalLength > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();

    uint32_t tile = static_cast<uint32_t>((ubSize - kFixedUb) / (uint64_t(kBufferNum) * typeSize + planes * 4ULL));
    tile = std::min<uint32_t>(tile / kUnit * kUnit, maxTile);
    const uint64_t units = (totalLength + kUnit - 1) / kUnit;
    uint64_t cores = (totalLength * typeSize + kMinBytesPerCore - 1) / kMinBytesPerCore;
    cores = std::max<uint64_t>(1, std::min<uint64_t>({cores, coreNum, units}));

    L1ReduceTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_unitsPerCore(static_cast<uint32_t>(units / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(units % cores));
    tiling.set_tileLength(tile);
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // SyncAll needs the library's system workspace; the user part holds one 32-byte slot per core.
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize() + cores * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
#endif  // REDUCE_HOST_TILING_H
