#include <algorithm>
#include <cstdint>

#include "batch_norm_v3_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t kMaxChannels = 8192;
constexpr uint64_t kReserve = 2048;
constexpr uint64_t kMaxTile = 16384;
constexpr uint64_t kMaxBlockCount = 4095;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* epsAttr = attrs->GetAttrPointer<float>(0);
    const float* momAttr = attrs->GetAttrPointer<float>(1);
    const bool* trainAttr = attrs->GetAttrPointer<bool>(2);
    const bool training = trainAttr == nullptr || *trainAttr;
    if (x.GetDimNum() < 2) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t n = x.GetDim(0);
    const uint64_t c = x.GetDim(1);
    uint64_t hw = 1;
    for (size_t i = 2; i < x.GetDimNum(); ++i) {
        hw *= x.GetDim(i);
    }
    const uint64_t count = n * hw;
    if (c == 0 || c > kMaxChannels || count == 0 || (training && count < 2) || hw > UINT32_MAX || n > UINT32_MAX) {
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
    // Channels over the cores; every core keeps its channels' parameters and per-channel outputs
    // (weight, bias, running mean / var, save mean / rstd, new running mean / var) as float32 in UB.
    const uint64_t useCores = std::max<uint64_t>(1, std::min<uint64_t>(coreNum, c));
    const uint64_t maxCh = (c + useCores - 1) / useCores;
    const uint64_t chAligned = (maxCh + 7) / 8 * 8;
    const uint64_t fixed = 8 * chAligned * 4 + 8 * 32 + kReserve;
    // Per tile element: input and output queues in T, two float32 scratch tiles, ReduceSum work.
    auto perElem = [&](uint64_t buf) { return 2 * buf * typeSize + 2 * 4; };
    uint64_t bufNum = 2;
    uint64_t tileLen = (ubSize - fixed) * 64 / (perElem(2) * 64 + 4);
    if (tileLen < 256) {
        bufNum = 1;
        tileLen = (ubSize - fixed) * 64 / (perElem(1) * 64 + 4);
    }
    tileLen = std::min<uint64_t>(tileLen, kMaxTile) / 64 * 64;
    const uint64_t epb = 32 / typeSize;
    const uint64_t stride = (hw + epb - 1) / epb * epb;
    // Do not allocate more than a channel needs.
    tileLen = std::min<uint64_t>(tileLen, std::max<uint64_t>(64, (n * stride + 63) / 64 * 64));
    if (tileLen == 0) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t rowsPerTile = stride <= tileLen ? std::min<uint64_t>({tileLen / stride, n, kMaxBlockCount}) : 0;

    BatchNormV3TilingData tiling;
    tiling.set_batch(static_cast<uint32_t>(n));
    tiling.set_channels(static_cast<uint32_t>(c));
    tiling.set_hw(static_cast<uint32_t>(hw));
    tiling.set_bigCoreNum(static_cast<uint32_t>(c % useCores));
    tiling.set_chPerCore(static_cast<uint32_t>(c / useCores));
    tiling.set_tileLen(static_cast<uint32_t>(tileLen));
    tiling.set_rowsPerTile(static_cast<uint32_t>(rowsPerTile));
    tiling.set_bufNum(static_cast<uint32_t>(bufNum));
    tiling.set_training(training ? 1 : 0);
    tiling.set_epsilon(epsAttr == nullptr ? 1e-5f : *epsAttr);
    tiling.set_momentum(momAttr == nullptr ? 0.1f : *momAttr);
    tiling.set_invCount(static_cast<float>(1.0 / static_cast<double>(count)));
    tiling.set_bessel(count > 1 ? static_cast<float>(static_cast<double>(count) / static_cast<double>(count - 1)) : 1.0f);
    context->SetBlockDim(static_cast<uint32_t>(useCores));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class BatchNormV3 : public OpDef {
public:
    explicit BatchNormV3(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("running_mean")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("running_var")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("running_mean_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("running_var_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("save_mean")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("save_rstd")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-05);
        this->Attr("momentum").AttrType(OPTIONAL).Float(0.1);
        this->Attr("is_training").AttrType(OPTIONAL).Bool(true);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(BatchNormV3);
}  // namespace ops
