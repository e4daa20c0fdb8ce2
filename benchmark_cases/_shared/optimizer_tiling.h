// optimizer_tiling.h -- host tiling shared by the level-2 optimizer solutions (optimizer_kernel.h kernel
// base): the flat element range split over the vector cores in 32-byte blocks, a UB tile sized from
// the real UB capacity, and the optimizer's hyper-parameters.
#ifndef OPTIMIZER_TILING_H
#define OPTIMIZER_TILING_H

#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2bOptimTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // elements of every tensor
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores taking blocksPerCore + 1 blocks
    TILING_DATA_FIELD_DEF(uint32_t, blocksPerCore); // 32-byte blocks of a small core
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile (multiple of 64)
    TILING_DATA_FIELD_DEF(float, lr);
    TILING_DATA_FIELD_DEF(float, beta1);
    TILING_DATA_FIELD_DEF(float, beta2);
    TILING_DATA_FIELD_DEF(float, eps);
    TILING_DATA_FIELD_DEF(float, weightDecay);
    TILING_DATA_FIELD_DEF(float, emaDecay);
    TILING_DATA_FIELD_DEF(uint32_t, flag0);         // operator switches (documented per operator)
    TILING_DATA_FIELD_DEF(uint32_t, flag1);
END_TILING_DATA_DEF;

struct L2bOptimParams {
    float lr = 0.0f, beta1 = 0.0f, beta2 = 0.0f, eps = 0.0f, weightDecay = 0.0f, emaDecay = 0.0f;
    uint32_t flag0 = 0, flag1 = 0;
};

// nIn tensors streamed in, nOut written back, nTmp float32 scratch tensors; the element count and
// dtype come from input `shapeInput`.
inline ge::graphStatus L2bOptimTiling(gert::TilingContext* context, size_t shapeInput, uint32_t nIn, uint32_t nOut,
                                      uint32_t nTmp, const L2bOptimParams& prm)
{
    constexpr uint64_t kBlock = 32;
    constexpr uint64_t kBufNum = 2;
    constexpr uint64_t kReserve = 1024;
    constexpr uint64_t kMinBytesPerCore = 8192;
    constexpr uint64_t kMaxTile = 16384;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(shapeInput)->GetDataType(), typeSize);
    const uint64_t total = context->GetInputShape(shapeInput)->GetStorageShape().GetShapeSize();
    if (typeSize == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t epb = kBlock / typeSize;
    const uint64_t blocks = (total + epb - 1) / epb;
    uint64_t cores = (total * typeSize * (nIn + nOut) + kMinBytesPerCore - 1) / kMinBytesPerCore;
    cores = std::max<uint64_t>(1, std::min<uint64_t>({cores, coreNum, std::max<uint64_t>(blocks, 1)}));
    const uint64_t castTensors = typeSize == sizeof(float) ? 0 : nIn;
    const uint64_t bytesPerElem = kBufNum * (nIn + nOut) * typeSize + (castTensors + nTmp) * sizeof(float);
    uint64_t tile = (ubSize - kReserve) / bytesPerElem / 64 * 64;
    tile = std::max<uint64_t>(64, std::min<uint64_t>(tile, kMaxTile));

    L2bOptimTilingData tiling;
    tiling.set_totalLength(total);
    tiling.set_bigCoreNum(static_cast<uint32_t>(blocks % cores));
    tiling.set_blocksPerCore(static_cast<uint32_t>(blocks / cores));
    tiling.set_tileLength(static_cast<uint32_t>(tile));
    tiling.set_lr(prm.lr);
    tiling.set_beta1(prm.beta1);
    tiling.set_beta2(prm.beta2);
    tiling.set_eps(prm.eps);
    tiling.set_weightDecay(prm.weightDecay);
    tiling.set_emaDecay(prm.emaDecay);
    tiling.set_flag0(prm.flag0);
    tiling.set_flag1(prm.flag1);
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#endif  // OPTIMIZER_TILING_H
