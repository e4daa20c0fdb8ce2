// elementwise_host_tiling.h -- host tiling of the level-1 elementwise solutions: the element range is cut
// into 256-element units spread over the vector cores (the first `bigCoreNum` cores take one unit
// more), and the UB tile is sized from the real UB capacity for double-buffered queues plus the
// operator's float32 scratch planes.
#ifndef ELEMENTWISE_HOST_TILING_H
#define ELEMENTWISE_HOST_TILING_H
#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "elementwise_tiling_data.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
struct L1EltUb {
    uint32_t inBytes;    // bytes per element of all input queues together
    uint32_t outBytes;   // bytes per element of all output queues together
    uint32_t calcBytes;  // float32 scratch bytes per element (planes * 4)
};

inline uint32_t L1DtypeSize(ge::DataType dtype)
{
    uint32_t size = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, size);
    return size;
}

inline ge::graphStatus L1ElementwiseTiling(gert::TilingContext* context, uint64_t totalLength, const L1EltUb& ub,
                                           uint32_t mode = 0, float scalar0 = 0.0f, float scalar1 = 0.0f)
{
    constexpr uint32_t kUnit = 256;            // core split granularity (elements)
    constexpr uint32_t kBufferNum = 2;         // double buffering
    constexpr uint64_t kUbReserve = 1024;      // room for small scratch (scalars, masks)
    constexpr uint32_t kMaxTile = 16384;       // longer tiles gain nothing on the MTE bandwidth curve
    constexpr uint64_t kMinBytesPerCore = 8192;  // below this another core costs more than it saves

    if (totalLength > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();

    const uint64_t bytesPerElem = uint64_t(kBufferNum) * (ub.inBytes + ub.outBytes) + ub.calcBytes;
    uint32_t tile = static_cast<uint32_t>((ubSize - kUbReserve) / bytesPerElem);
    tile = std::min<uint32_t>(tile / kUnit * kUnit, kMaxTile);

    const uint64_t units = (totalLength + kUnit - 1) / kUnit;
    const uint64_t bytes = totalLength * (ub.inBytes + ub.outBytes);
    uint64_t cores = (bytes + kMinBytesPerCore - 1) / kMinBytesPerCore;
    cores = std::max<uint64_t>(1, std::min<uint64_t>({cores, coreNum, std::max<uint64_t>(units, 1)}));

    L1EltTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_unitsPerCore(static_cast<uint32_t>(units / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(units % cores));
    tiling.set_tileLength(tile);
    tiling.set_calcBytes(ub.calcBytes);
    tiling.set_mode(mode);
    tiling.set_scalar0(scalar0);
    tiling.set_scalar1(scalar1);
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
#endif  // ELEMENTWISE_HOST_TILING_H
