#include "kernel_operator.h"
#include "norm_grad_kernel.h"

extern "C" __global__ __aicore__ void deep_norm_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR mean, GM_ADDR rstd, GM_ADDR dx, GM_ADDR dgx, GM_ADDR dbeta, GM_ADDR dgamma, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    norm_grad_kernels::NormGradArgs args;
    args.dy = dy;
    args.in0 = x;
    args.in1 = gx;
    args.gamma = gamma;
    args.mean = mean;
    args.rstd = rstd;
    args.dx = dx;
    args.dgx = dgx;
    args.dbeta = dbeta;
    args.dgamma = dgamma;
    norm_grad_kernels::NormGrad<DTYPE_DY, norm_grad_kernels::GradPre::SCALE_ADD, norm_grad_kernels::GradNorm::LAYER> op;
    op.Init(args, tilingData);
    op.Process();
}
