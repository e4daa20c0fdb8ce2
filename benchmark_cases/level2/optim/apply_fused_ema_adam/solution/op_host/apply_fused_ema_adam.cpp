#include "optimizer_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ApplyFusedEmaAdam, L2bOptimTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    L2bOptimParams prm;
    prm.lr = *attrs->GetAttrPointer<float>(0);
    prm.emaDecay = *attrs->GetAttrPointer<float>(1);
    prm.beta1 = *attrs->GetAttrPointer<float>(2);
    prm.beta2 = *attrs->GetAttrPointer<float>(3);
    prm.eps = *attrs->GetAttrPointer<float>(4);
    const int64_t mode = *attrs->GetAttrPointer<int64_t>(5);
    if (mode != 0 && mode != 1) {
        return ge::GRAPH_FAILED;
    }
    prm.flag0 = static_cast<uint32_t>(mode);                    // 0: L2, 1: decoupled decay
    prm.flag1 = *attrs->GetAttrPointer<bool>(6) ? 1 : 0;       // bias_correction
    prm.weightDecay = *attrs->GetAttrPointer<float>(7);
    // var, m, v, s, grad streamed; var, m, v, s written back; two float32 scratch tensors.
    return L2bOptimTiling(context, 1, 5, 4, 2, prm);
}
}  // namespace optiling

namespace ops {
class ApplyFusedEmaAdam : public OpDef {
public:
    explicit ApplyFusedEmaAdam(const char* name) : OpDef(name)
    {
        this->Input("grad")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("var")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("m")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("v")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("s")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("step")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("var_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("m_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("v_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("s_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.001);
        this->Attr("ema_decay").AttrType(OPTIONAL).Float(0.5);
        this->Attr("beta1").AttrType(OPTIONAL).Float(0.9);
        this->Attr("beta2").AttrType(OPTIONAL).Float(0.999);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-08);
        this->Attr("mode").AttrType(OPTIONAL).Int(1);
        this->Attr("bias_correction").AttrType(OPTIONAL).Bool(true);
        this->Attr("weight_decay").AttrType(OPTIONAL).Float(0.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ApplyFusedEmaAdam);
}  // namespace ops
