#include "kernel_operator.h"

extern "C" __global__ __aicore__ void coalesce_sparse(GM_ADDR unique_indices, GM_ADDR indices, GM_ADDR values, GM_ADDR new_indices, GM_ADDR new_values, GM_ADDR workspace, GM_ADDR tiling)
{
    // TODO: implement the kernel.
}
