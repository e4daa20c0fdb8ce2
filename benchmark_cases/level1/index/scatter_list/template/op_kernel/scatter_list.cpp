#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scatter_list(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR var_out, GM_ADDR workspace, GM_ADDR tiling)
{
    // TODO: implement the kernel.
}
