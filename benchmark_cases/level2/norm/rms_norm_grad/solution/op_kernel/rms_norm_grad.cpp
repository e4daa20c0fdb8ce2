#include "kernel_operator.h"
#include "norm_grad_kernel.h"

extern "C" __global__ __aicore__ void rms_norm_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR rstd, GM_ADDR gamma, GM_ADDR dx, GM_ADDR dgamma, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    norm_grad_kernels::NormGradArgs args;
    args.dy = dy;
    args.in0 = x;
    args.rstd = rstd;
    args.gamma = gamma;
    args.dx = dx;
    args.dgamma = dgamma;
    norm_grad_kernels::NormGrad<DTYPE_DY, norm_grad_kernels::GradPre::X, norm_grad_kernels::GradNorm::RMS> op;
    op.Init(args, tilingData);
    op.Process();
}
