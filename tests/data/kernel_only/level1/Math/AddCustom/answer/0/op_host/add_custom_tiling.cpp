#include <iostream>
#include "add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus AddCustomTiling(gert::TilingContext* context)
{
    AddCustomTilingData tiling;
    tiling.set_totalLength(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    tiling.set_tileLength(1024);

    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
