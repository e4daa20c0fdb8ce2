#include "fill_tiling.h"
#include "fill_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{

    const auto* dims = context->GetAttrs()->GetListInt(0);
    const int64_t* d = static_cast<const int64_t*>(dims->GetData());
    uint64_t total = 1;
    for (size_t i = 0; i < dims->GetSize(); ++i) {
        total *= static_cast<uint64_t>(d[i]);
    }
    return L1FillTiling(context, total, L1DtypeBytes(context->GetInputDesc(0)->GetDataType()), 0);
}
}  // namespace optiling

namespace ops {
class Fill : public OpDef {
public:
    explicit Fill(const char* name) : OpDef(name)
    {
        this->Input("value")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dims").AttrType(REQUIRED).ListInt();
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Fill);
}  // namespace ops
