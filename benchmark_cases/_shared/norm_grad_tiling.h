// norm_grad_tiling.h -- host tiling for the norm_grad_kernel.h kernel base (RmsNormGrad,
// AddLayerNormGrad, DeepNormGrad). Rows are tiled exactly like the forward row norms
// (row_norm_tiling.h); the backward kernels also need the system workspace for SyncAll (core 0
// zeroes dgamma / dbeta before every core adds its partial sums atomically).
#ifndef NORM_GRAD_TILING_H
#define NORM_GRAD_TILING_H

#include "row_norm_tiling.h"

namespace optiling {
// inT: T rows read per tile (dy, the inputs, dsum); outT: T rows written per tile.
inline ge::graphStatus L2b2NormGradTiling(gert::TilingContext* context, uint32_t inT, uint32_t outT, float alpha,
                                          size_t xInput)
{
    const gert::Shape& x = context->GetInputShape(xInput)->GetStorageShape();
    const uint64_t d = x.GetDim(x.GetDimNum() - 1);
    const uint64_t rows = d == 0 ? 0 : x.GetShapeSize() / d;
    // float32 rows: one queued slot stands for the third scratch row (s, g, tmp); params: work,
    // gamma, and the dgamma / dbeta accumulators.
    const ge::graphStatus status = L2bRowNormTiling(context, rows, d, L2bRowNormBuffers{inT, outT, 1, 0, 3}, 0.0f, alpha);
    if (status != ge::GRAPH_SUCCESS) {
        return status;
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

#endif  // NORM_GRAD_TILING_H
