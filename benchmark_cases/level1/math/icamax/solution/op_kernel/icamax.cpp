#include "reduce_kernel.h"
using namespace AscendC;

// |re| + |im| per complex element, first extreme by index (reduce_kernel.h: ComplexArgOp).
using IcamaxOp = reduce_kernels::ComplexArgOp<true>;

extern "C" __global__ __aicore__ void icamax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    reduce_kernels::Run<float>(IcamaxOp{}, x, y, workspace, t);
}
