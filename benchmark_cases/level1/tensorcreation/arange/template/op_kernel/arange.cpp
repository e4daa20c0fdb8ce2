#include "kernel_operator.h"

extern "C" __global__ __aicore__ void arange(GM_ADDR start, GM_ADDR step, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    // TODO: implement the kernel.
}
