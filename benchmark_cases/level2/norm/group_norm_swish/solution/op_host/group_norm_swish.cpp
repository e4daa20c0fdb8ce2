#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "group_norm_swish_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t kMaxChannels = 8192;
constexpr uint64_t kStatChunk = 1024;  // groups whose mean / rstd are staged in UB before one copy out
constexpr uint64_t kReserve = 2048;
constexpr uint64_t kMaxTile = 16384;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t* groupsAttr = attrs->GetAttrPointer<int64_t>(0);
    const float* epsAttr = attrs->GetAttrPointer<float>(1);
    const bool* swishAttr = attrs->GetAttrPointer<bool>(2);
    const float* scaleAttr = attrs->GetAttrPointer<float>(3);
    if (x.GetDimNum() < 2 || groupsAttr == nullptr || *groupsAttr <= 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t n = x.GetDim(0);
    const uint64_t c = x.GetDim(1);
    const uint64_t g = static_cast<uint64_t>(*groupsAttr);
    if (c == 0 || c % g != 0 || c > kMaxChannels) {
        return ge::GRAPH_FAILED;
    }
    uint64_t hw = 1;
    for (size_t i = 2; i < x.GetDimNum(); ++i) {
        hw *= x.GetDim(i);
    }
    const uint64_t groupLen = c / g * hw;
    const uint64_t groups = n * g;
    if (groupLen == 0 || groupLen > UINT32_MAX || groups > UINT32_MAX) {
        return ge::GRAPH_FAILED;
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
    // Fixed UB: gamma and beta as float32, the mean / rstd staging area, reduction slots.
    const uint64_t alignedC = (c + 7) / 8 * 8;
    const uint64_t fixed = 2 * alignedC * 4 + 2 * kStatChunk * 4 + 8 * 32 + kReserve;
    // Per tile element: input and output queues in T, two float32 scratch rows, the ReduceSum work
    // area (one float per 64 elements).
    auto perElem = [&](uint64_t buf) { return 2 * buf * typeSize + 2 * 4; };
    uint64_t bufNum = 2;
    uint64_t tileLen = (ubSize - fixed) * 64 / (perElem(2) * 64 + 4);
    if (tileLen < 256) {
        bufNum = 1;
        tileLen = (ubSize - fixed) * 64 / (perElem(1) * 64 + 4);
    }
    tileLen = std::min<uint64_t>(tileLen, kMaxTile) / 64 * 64;
    // Do not allocate more than a group needs (tiny groups): round the group up to whole blocks.
    tileLen = std::min<uint64_t>(tileLen, std::max<uint64_t>(64, (groupLen + 63) / 64 * 64));
    if (tileLen == 0) {
        return ge::GRAPH_FAILED;
    }
    // Pass 2 walks channels: whole channels per tile when one fits (rows padded to 32 bytes),
    // otherwise chunks of tileLen elements of one channel.
    const uint64_t epb = 32 / typeSize;
    const uint64_t stride = (hw + epb - 1) / epb * epb;
    uint64_t rowsPerTile = stride <= tileLen ? std::min<uint64_t>(tileLen / stride, c / g) : 0;

    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, groups));
    GroupNormSwishTilingData tiling;
    tiling.set_groupsPerSample(static_cast<uint32_t>(g));
    tiling.set_chPerGroup(static_cast<uint32_t>(c / g));
    tiling.set_channels(static_cast<uint32_t>(c));
    tiling.set_hw(static_cast<uint32_t>(hw));
    tiling.set_groupLen(static_cast<uint32_t>(groupLen));
    tiling.set_bigCoreNum(static_cast<uint32_t>(groups % useCores));
    tiling.set_groupsPerCore(static_cast<uint32_t>(groups / useCores));
    tiling.set_tileLen(static_cast<uint32_t>(tileLen));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_bufNum(static_cast<uint32_t>(bufNum));
    tiling.set_activateSwish(swishAttr == nullptr || *swishAttr ? 1 : 0);
    tiling.set_epsilon(epsAttr == nullptr ? 1e-5f : *epsAttr);
    tiling.set_swishScale(scaleAttr == nullptr ? 1.0f : *scaleAttr);
    tiling.set_invGroupLen(1.0f / static_cast<float>(groupLen));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GroupNormSwish : public OpDef {
public:
    explicit GroupNormSwish(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("mean")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("rstd")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-05);
        this->Attr("activate_swish").AttrType(OPTIONAL).Bool(true);
        this->Attr("swish_scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupNormSwish);
}  // namespace ops
