#include "kernel_operator.h"
#include "triangle_kernel.h"

extern "C" __global__ __aicore__ void triu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const triangle_kernels::TriShape shape{t.rows, t.cols, t.height, t.diagonal, t.coreNum, t.tileElems, t.colTile};
    triangle_kernels::RunTriangle<DTYPE_X, false>(x, y, shape);
}
