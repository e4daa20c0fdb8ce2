#include "kernel_operator.h"

extern "C" __global__ __aicore__ void cross_entropy_loss_grad(GM_ADDR grad_loss, GM_ADDR log_prob, GM_ADDR target, GM_ADDR x_grad, GM_ADDR workspace, GM_ADDR tiling)
{
    // TODO: implement the kernel.
}
