#include "reduce_kernel.h"
using namespace AscendC;

// |re| + |im| per complex element, first extreme by index (reduce_kernel.h: ComplexArgOp).
using IcaminOp = reduce_kernels::ComplexArgOp<false>;

extern "C" __global__ __aicore__ void icamin(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    reduce_kernels::Run<float>(IcaminOp{}, x, y, workspace, t);
}
