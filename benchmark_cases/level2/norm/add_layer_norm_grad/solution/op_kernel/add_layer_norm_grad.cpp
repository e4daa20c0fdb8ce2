#include "kernel_operator.h"
#include "norm_grad_kernel.h"

extern "C" __global__ __aicore__ void add_layer_norm_grad(GM_ADDR dy, GM_ADDR x1, GM_ADDR x2, GM_ADDR rstd, GM_ADDR mean, GM_ADDR gamma, GM_ADDR dsum, GM_ADDR dx, GM_ADDR dgamma, GM_ADDR dbeta, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    norm_grad_kernels::NormGradArgs args;
    args.dy = dy;
    args.in0 = x1;
    args.in1 = x2;
    args.rstd = rstd;
    args.mean = mean;
    args.gamma = gamma;
    args.dsum = dsum;
    args.dx = dx;
    args.dgamma = dgamma;
    args.dbeta = dbeta;
    norm_grad_kernels::NormGrad<DTYPE_DY, norm_grad_kernels::GradPre::ADD, norm_grad_kernels::GradNorm::LAYER> op;
    op.Init(args, tilingData);
    op.Process();
}
