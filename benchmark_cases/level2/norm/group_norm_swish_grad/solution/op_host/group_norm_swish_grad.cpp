#include <algorithm>
#include <cstdint>

#include "graph/utils/type_utils.h"
#include "group_norm_swish_grad_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t kMaxChannels = 4096;
constexpr uint64_t kReserve = 2048;
constexpr uint64_t kMaxTile = 8192;
constexpr uint64_t kMaxBlockCount = 4095;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const int64_t* groupsAttr = attrs->GetAttrPointer<int64_t>(0);
    const float* scaleAttr = attrs->GetAttrPointer<float>(1);
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
    // Fixed UB: gamma, beta and this core's partial dgamma / dbeta as float32, reduction slots.
    const uint64_t alignedC = (c + 7) / 8 * 8;
    const uint64_t fixed = 4 * alignedC * 4 + 8 * 32 + kReserve;
    // Per tile element: dy and x in, dx out (T, queued), four float32 scratch tiles, two per-row
    // 32-byte reduction slots (at most one row per 8 elements), the ReduceSum work area.
    auto perElem = [&](uint64_t buf) { return 3 * buf * typeSize + 4 * 4 + 8; };
    uint64_t bufNum = 2;
    uint64_t tileLen = (ubSize - fixed) * 64 / (perElem(2) * 64 + 4);
    if (tileLen < 256) {
        bufNum = 1;
        tileLen = (ubSize - fixed) * 64 / (perElem(1) * 64 + 4);
    }
    tileLen = std::min<uint64_t>(tileLen, kMaxTile) / 64 * 64;
    const uint64_t epb = 32 / typeSize;
    const uint64_t stride = (hw + epb - 1) / epb * epb;
    tileLen = std::min<uint64_t>(tileLen, std::max<uint64_t>(64, (c / g * stride + 63) / 64 * 64));
    if (tileLen == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t rowsPerTile = stride <= tileLen ? std::min<uint64_t>({tileLen / stride, c / g, kMaxBlockCount}) : 0;
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, groups));

    GroupNormSwishGradTilingData tiling;
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
    tiling.set_swishScale(scaleAttr == nullptr ? 1.0f : *scaleAttr);
    tiling.set_invGroupLen(static_cast<float>(1.0 / static_cast<double>(groupLen)));
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();  // SyncAll
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class GroupNormSwishGrad : public OpDef {
public:
    explicit GroupNormSwishGrad(const char* name) : OpDef(name)
    {
        this->Input("dy")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("mean")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("rstd")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
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
        this->Output("dx")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("dgamma")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("dbeta")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").AttrType(REQUIRED).Int();
        this->Attr("swish_scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupNormSwishGrad);
}  // namespace ops
