#include "scale_shift_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleShiftTilingData tiling;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    tiling.set_totalLength(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    tiling.set_scale(*attrs->GetAttrPointer<float>(0));
    tiling.set_shift(*attrs->GetAttrPointer<float>(1));

    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScaleShiftCustom : public OpDef {
public:
    explicit ScaleShiftCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("count").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(REQUIRED).Float();
        this->Attr("shift").AttrType(OPTIONAL).Float(0.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleShiftCustom);
}  // namespace ops
