#include "optimizer_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
REGISTER_TILING_DATA_CLASS(ApplyAdamWV2, L2bOptimTilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    L2bOptimParams prm;
    prm.lr = *attrs->GetAttrPointer<float>(0);
    prm.beta1 = *attrs->GetAttrPointer<float>(1);
    prm.beta2 = *attrs->GetAttrPointer<float>(2);
    prm.weightDecay = *attrs->GetAttrPointer<float>(3);
    prm.eps = *attrs->GetAttrPointer<float>(4);
    const bool amsgrad = *attrs->GetAttrPointer<bool>(5);
    prm.flag0 = amsgrad ? 1 : 0;                              // amsgrad
    prm.flag1 = *attrs->GetAttrPointer<bool>(6) ? 1 : 0;      // maximize
    // var, m, v, grad (+ max_grad_norm with amsgrad) streamed; var, m, v (+ max) written back.
    const uint32_t nIn = amsgrad ? 5 : 4;
    const uint32_t nOut = amsgrad ? 4 : 3;
    return L2bOptimTiling(context, 0, nIn, nOut, 1, prm);
}
}  // namespace optiling

namespace ops {
class ApplyAdamWV2 : public OpDef {
public:
    explicit ApplyAdamWV2(const char* name) : OpDef(name)
    {
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
        this->Input("max_grad_norm")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("grad")
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
        this->Output("max_grad_norm_out")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("lr").AttrType(OPTIONAL).Float(0.001);
        this->Attr("beta1").AttrType(OPTIONAL).Float(0.9);
        this->Attr("beta2").AttrType(OPTIONAL).Float(0.999);
        this->Attr("weight_decay").AttrType(OPTIONAL).Float(0.01);
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-08);
        this->Attr("amsgrad").AttrType(OPTIONAL).Bool(false);
        this->Attr("maximize").AttrType(OPTIONAL).Bool(false);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ApplyAdamWV2);
}  // namespace ops
