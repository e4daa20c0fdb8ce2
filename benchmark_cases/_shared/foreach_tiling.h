// foreach_tiling.h -- host tiling shared by the level-2 Foreach solutions (kernel side:
// foreach_kernel.h). Input 0 of every Foreach operator is a DYNAMIC tensor list; its tensors are
// read through GetDynamicInputShape(0, i). The work unit is a 32-byte block of the concatenated
// list (each tensor padded to whole blocks); the blocks are split evenly over the vector cores, so
// the balance does not depend on how the elements are spread over the tensors.
#ifndef FOREACH_TILING_H
#define FOREACH_TILING_H

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ForeachTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, tensorNum);      // tensors per list
    TILING_DATA_FIELD_DEF(uint32_t, blocksPerCore);  // 32-byte blocks of a small core
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);     // the first cores take one block more
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);     // elements per UB tile
END_TILING_DATA_DEF;

// UB needs of an operator, in the units of foreach_kernel.h.
struct ForeachUb {
    uint32_t inLists;      // lists streamed in (Op::IN)
    uint32_t tmpPlanes;    // float32 scratch planes (Op::TMP)
    bool output = true;    // an output list is written (Op::OUT)
    uint32_t reserved = 0; // extra UB bytes the operator keeps (reduction scratch)
    bool partials = false; // one float32 partial per (core, tensor) in the workspace, combined after SyncAll
};

inline ge::graphStatus ForeachTiling(gert::TilingContext* context, const ForeachUb& ub)
{
    constexpr uint64_t BLOCK_BYTES = 32;
    constexpr uint32_t BUFFER_NUM = 2;
    constexpr uint64_t MIN_BYTES_PER_CORE = 8192;  // below this a core's launch costs more than its copy

    uint32_t tensorNum = 0;
    while (context->GetDynamicInputShape(0, tensorNum) != nullptr) {
        ++tensorNum;
    }
    if (tensorNum == 0) {
        return ge::GRAPH_FAILED;
    }
    const ge::DataType dtype = context->GetDynamicInputDesc(0, 0)->GetDataType();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(dtype, typeSize);
    if (typeSize == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t perBlock = BLOCK_BYTES / typeSize;
    uint64_t totalBlocks = 0;
    for (uint32_t i = 0; i < tensorNum; ++i) {
        const uint64_t len = context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize();
        totalBlocks += (len + perBlock - 1) / perBlock;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    const uint64_t minBlocks = MIN_BYTES_PER_CORE / BLOCK_BYTES;
    const uint64_t cores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, (totalBlocks + minBlocks - 1) / minBlocks));

    // Double-buffered queues in T, plus float32 planes when T is cast, plus the operator's scratch.
    const bool cast = typeSize != sizeof(float);
    const uint64_t queueBytes = BUFFER_NUM * typeSize * (ub.inLists + (ub.output ? 1 : 0));
    const uint64_t planeBytes = sizeof(float) * ((cast ? ub.inLists + 1 : 0) + ub.tmpPlanes);
    const uint64_t avail = ubSize - 1024 - ub.reserved;
    uint64_t tile = avail / (queueBytes + planeBytes);
    tile = std::min<uint64_t>(tile / 256 * 256, 16384);  // whole 256-byte repeats for every dtype
    // A list that fits one core needs no tile beyond its own padded length.
    tile = std::min<uint64_t>(tile, std::max<uint64_t>(256, (totalBlocks * perBlock + 255) / 256 * 256));

    ForeachTilingData tiling;
    tiling.set_tensorNum(tensorNum);
    tiling.set_blocksPerCore(static_cast<uint32_t>(totalBlocks / cores));
    tiling.set_bigCoreNum(static_cast<uint32_t>(totalBlocks % cores));
    tiling.set_tileLength(static_cast<uint32_t>(tile));
    context->SetBlockDim(static_cast<uint32_t>(cores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    // Partials: a 32-byte aligned row of tensorNum floats per core, after the library's system workspace.
    const uint64_t row = (tensorNum + 7) / 8 * 8 * sizeof(float);
    workspace[0] = ub.partials ? platform.GetLibApiWorkSpaceSize() + cores * row : 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
// Declares a Foreach operator's parameters in kernel order: the DYNAMIC tensor lists (float16,
// bfloat16, float32), the REQUIRED scalar inputs (one dtype for every column) and the DYNAMIC
// output list.
inline void ForeachParams(OpDef& def, std::initializer_list<const char*> lists,
                          std::initializer_list<std::pair<const char*, ge::DataType>> scalars, const char* out = "y")
{
    const std::vector<ge::DataType> types{ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT};
    const std::vector<ge::Format> nd{ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND};
    for (const char* name : lists) {
        def.Input(name).ParamType(DYNAMIC).DataType(types).Format(nd);
    }
    for (const auto& scalar : scalars) {
        def.Input(scalar.first).ParamType(REQUIRED).DataType({scalar.second, scalar.second, scalar.second}).Format(nd);
    }
    def.Output(out).ParamType(DYNAMIC).DataType(types).Format(nd);
}
}  // namespace ops
#endif  // FOREACH_TILING_H
