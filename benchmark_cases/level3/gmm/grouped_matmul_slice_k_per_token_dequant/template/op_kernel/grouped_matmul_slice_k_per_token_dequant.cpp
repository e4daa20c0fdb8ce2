#include "kernel_operator.h"

extern "C" __global__ __aicore__ void grouped_matmul_slice_k_per_token_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR per_token_scale, GM_ADDR group_list, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    // TODO: implement the kernel.
}
