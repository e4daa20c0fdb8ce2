#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "strided_slice_assign_v2_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t kReserve = 1024;
constexpr uint64_t kMaxBlockCount = 4095;  // DataCopyPad blockCount limit

// Python slice rules: begin / end wrap once when negative, then clamp to [0, size].
static int64_t Clamp(int64_t v, int64_t size)
{
    if (v < 0) {
        v += size;
    }
    return std::min<int64_t>(std::max<int64_t>(v, 0), size);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& var = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& value = context->GetInputShape(1)->GetStorageShape();
    const size_t rank = var.GetDimNum();
    const gert::Tensor* bt = context->GetInputTensor(2);
    const gert::Tensor* et = context->GetInputTensor(3);
    const gert::Tensor* st = context->GetInputTensor(4);
    if (bt == nullptr || et == nullptr || st == nullptr || bt->GetData<int64_t>() == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const size_t k = static_cast<size_t>(context->GetInputShape(2)->GetStorageShape().GetShapeSize());
    if (k == 0 || k > rank || rank > kSsaMaxDims || value.GetDimNum() != rank ||
        static_cast<size_t>(context->GetInputShape(3)->GetStorageShape().GetShapeSize()) != k ||
        static_cast<size_t>(context->GetInputShape(4)->GetStorageShape().GetShapeSize()) != k) {
        return ge::GRAPH_FAILED;
    }
    const int64_t* b = bt->GetData<int64_t>();
    const int64_t* e = et->GetData<int64_t>();
    const int64_t* s = st->GetData<int64_t>();
    // Element strides of var (row-major).
    uint64_t varStride[kSsaMaxDims];
    uint64_t acc = 1;
    for (size_t i = rank; i-- > 0;) {
        varStride[i] = acc;
        acc *= var.GetDim(i);
    }
    uint64_t inner = 1;  // elements of the unsliced trailing dims
    for (size_t i = k; i < rank; ++i) {
        if (value.GetDim(i) != var.GetDim(i)) {
            return ge::GRAPH_FAILED;
        }
        inner *= var.GetDim(i);
    }
    uint64_t count[kSsaMaxDims];
    uint64_t step[kSsaMaxDims];
    uint64_t base = 0;
    uint64_t rows = 1;
    for (size_t i = 0; i < k; ++i) {
        const int64_t size = var.GetDim(i);
        if (s[i] <= 0) {
            return ge::GRAPH_FAILED;
        }
        const int64_t lo = Clamp(b[i], size);
        const int64_t hi = Clamp(e[i], size);
        const uint64_t n = hi > lo ? static_cast<uint64_t>((hi - lo + s[i] - 1) / s[i]) : 0;
        if (n != static_cast<uint64_t>(value.GetDim(i))) {
            return ge::GRAPH_FAILED;  // input_value does not have the slice's shape
        }
        count[i] = n;
        step[i] = static_cast<uint64_t>(s[i]) * varStride[i];
        base += static_cast<uint64_t>(lo) * varStride[i];
        rows *= n;
    }
    // Merge trailing index dims into the row while the row stays contiguous in var: dim i joins when
    // its stride is 1 and the current row spans exactly one step of dim i.
    uint64_t rowLen = inner;
    size_t m = k;
    while (m > 0 && step[m - 1] == rowLen) {
        rowLen *= count[m - 1];
        rows /= std::max<uint64_t>(count[m - 1], 1);
        --m;
        if (count[m] == 0) {
            rows = 0;
        }
    }
    if (m == 0) {  // the whole slice is one contiguous run: one index dim of a single row
        count[0] = 1;
        step[0] = 0;
        m = 1;
    }

    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint64_t coreNum = platform.GetCoreNumAiv();
    uint32_t typeSize = 0;
    ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
    if (typeSize == 0) {
        return ge::GRAPH_FAILED;
    }
    // Pure data movement: one double-buffered queue bound VECIN -> VECOUT, as large as UB allows.
    const uint64_t tileBytes = (ubSize - kReserve) / 2 / 32 * 32;
    const uint64_t rowBytes = (rowLen * typeSize + 31) / 32 * 32;
    uint64_t chunksPerRow = 1;
    uint64_t chunkLen = rowLen;
    uint64_t rowsPerTile = 1;
    if (rowBytes > tileBytes) {
        chunkLen = tileBytes / typeSize;
        chunksPerRow = (rowLen + chunkLen - 1) / chunkLen;
    } else {
        rowsPerTile = std::min<uint64_t>(tileBytes / std::max<uint64_t>(rowBytes, 32), kMaxBlockCount);
    }
    const uint64_t items = rows * chunksPerRow;
    // Balance: rows are handed out whole, so do not use more cores than there are tiles of work.
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, items));

    StridedSliceAssignV2TilingData tiling;
    uint32_t counts[kSsaMaxDims] = {0};
    uint64_t steps[kSsaMaxDims] = {0};
    for (size_t i = 0; i < m; ++i) {
        counts[i] = static_cast<uint32_t>(count[i]);
        steps[i] = step[i];
    }
    tiling.set_indexDims(static_cast<uint32_t>(m));
    tiling.set_counts(counts);
    tiling.set_varStep(steps);
    tiling.set_varBase(base);
    tiling.set_rowLen(rowLen);
    tiling.set_totalItems(items);
    tiling.set_itemsPerCore(items / useCores);
    tiling.set_bigCoreNum(static_cast<uint32_t>(items % useCores));
    tiling.set_chunksPerRow(static_cast<uint32_t>(chunksPerRow));
    tiling.set_chunkLen(static_cast<uint32_t>(chunkLen));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_tileBytes(static_cast<uint32_t>(tileBytes));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class StridedSliceAssignV2 : public OpDef {
public:
    explicit StridedSliceAssignV2(const char* name) : OpDef(name)
    {
        this->Input("var")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("input_value")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("begin")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .ValueDepend(REQUIRED);
        this->Input("end")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .ValueDepend(REQUIRED);
        this->Input("strides")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND})
            .ValueDepend(REQUIRED);
        this->Output("var_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(StridedSliceAssignV2);
}  // namespace ops
