#include "reduce_kernel.h"
using namespace AscendC;

// |x| per tile, first extreme by index-returning ReduceMax/ReduceMin (reduce_kernel.h: RealArgOp).
using IsaminOp = reduce_kernels::RealArgOp<false>;

extern "C" __global__ __aicore__ void isamin(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    reduce_kernels::Run<float>(IsaminOp{}, x, y, workspace, t);
}
