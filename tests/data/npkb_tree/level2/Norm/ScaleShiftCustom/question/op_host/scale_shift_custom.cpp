#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
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
