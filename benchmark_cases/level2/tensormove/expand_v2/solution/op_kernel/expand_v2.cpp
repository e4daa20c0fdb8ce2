#include "kernel_operator.h"
#include "row_gather_kernel.h"
using namespace AscendC;

// Source row of an output row: the output's leading index with every broadcast dim's index dropped
// (x stride 0), mixed-radix over the output's leading dims.
struct ExpandSource {
    uint32_t rowDims = 0;
    uint32_t outDims[8] = {};
    uint32_t xStrides[8] = {};
    __aicore__ inline uint64_t operator()(uint64_t row) const
    {
        uint64_t off = 0;
        for (uint32_t i = rowDims; i-- > 0;) {
            off += (row % outDims[i]) * xStrides[i];
            row /= outDims[i];
        }
        return off;
    }
};

extern "C" __global__ __aicore__ void expand_v2(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ExpandSource source;
    source.rowDims = t.rowDims;
    for (uint32_t i = 0; i < t.rowDims; ++i) {
        source.outDims[i] = t.outDims[i];
        source.xStrides[i] = t.xStrides[i];
    }
    row_gather_kernels::GatherTiling g{t.width, t.lastBroadcast != 0, t.bigCoreNum, t.rowsPerCore, t.rowsPerTile, t.colTile};
    row_gather_kernels::RowGather<DTYPE_X, ExpandSource> op;
    op.Init(x, y, source, g);
    op.Process();
}
