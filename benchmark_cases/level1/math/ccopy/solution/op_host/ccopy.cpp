#include "ccopy_tiling.h"
#include "elementwise_host_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
// complex64 vector moved as float32 pairs; multi-core, double-buffered.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
    const uint32_t size = L1DtypeSize(dtype);
    // complex64 is moved as 2n float32 values.
    return L1ElementwiseTiling(context, 2 * total, {4, 4, 0});
}
}  // namespace optiling

namespace ops {
class Ccopy : public OpDef {
public:
    explicit Ccopy(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_COMPLEX64})
            .Format({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_COMPLEX64})
            .Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Ccopy);
}  // namespace ops
