#include "coalesce_sparse_tiling.h"
#include <algorithm>
#include "graph/utils/type_utils.h"
#include "tiling/platform/platform_ascendc.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& values = context->GetInputShape(2)->GetStorageShape();
    const gert::Shape& indices = context->GetInputShape(1)->GetStorageShape();
    const gert::Shape& out = context->GetOutputShape(1)->GetStorageShape();
    const uint64_t nnz = values.GetDim(0);
    const uint64_t rowLen = nnz == 0 ? 1 : values.GetShapeSize() / nnz;
    const uint64_t ndim = indices.GetDimNum() < 2 ? 1 : indices.GetDim(1);
    const uint64_t m = out.GetDim(0);
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(2)->GetDataType(), typeSize);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    // UB per entry: its slot, its value row and its index row, each 32-byte aligned.
    const uint64_t valStride = (rowLen * typeSize + 31) / 32 * 32;
    const uint64_t idxStride = (ndim * 4 + 31) / 32 * 32;
    constexpr uint64_t kZeroBytes = 16 * 1024;
    constexpr uint64_t kReserve = 2048;
    if (ubSize < kZeroBytes + kReserve + valStride + idxStride + 32) {
        return ge::GRAPH_FAILED;  // value rows too long (constraint in api_desc.md)
    }
    uint64_t tile = (ubSize - kZeroBytes - kReserve) / (valStride + idxStride + 4);
    tile = std::min<uint64_t>(tile / 8 * 8 == 0 ? tile : tile / 8 * 8, 4088);
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, std::max(nnz, m)));
    CoalesceSparseTilingData tiling;
    tiling.set_nnz(static_cast<uint32_t>(nnz));
    tiling.set_rowLen(static_cast<uint32_t>(rowLen));
    tiling.set_ndim(static_cast<uint32_t>(ndim));
    tiling.set_outRows(static_cast<uint32_t>(m));
    tiling.set_entriesPerCore(static_cast<uint32_t>(nnz / useCores));
    tiling.set_entriesBigCores(static_cast<uint32_t>(nnz % useCores));
    tiling.set_zeroPerCore(static_cast<uint32_t>(m * rowLen / useCores));
    tiling.set_zeroBigCores(static_cast<uint32_t>(m * rowLen % useCores));
    tiling.set_tileEntries(static_cast<uint32_t>(std::max<uint64_t>(1, tile)));
    tiling.set_zeroElems(static_cast<uint32_t>(kZeroBytes / typeSize));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    // SyncAll between zeroing new_values and the atomic accumulation needs the system workspace.
    context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CoalesceSparse : public OpDef {
public:
    explicit CoalesceSparse(const char* name) : OpDef(name)
    {
        this->Input("unique_indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("new_indices")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("new_values")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(CoalesceSparse);
}  // namespace ops
