#include "elementwise_kernel.h"
using namespace AscendC;

// Compare (bit mask over whole 256-byte repeats) -> 0/1 bytes (elementwise_kernel.h: CompareOp).
using LessOp = elementwise_kernels::CompareOp<CMPMODE::LT>;

extern "C" __global__ __aicore__ void less(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[2] = {x1, x2};
    elementwise_kernels::Run<DTYPE_X1, uint8_t, 2>(LessOp{}, in, y, t);
}
