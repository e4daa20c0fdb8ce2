#include "kernel_operator.h"
#include "row_norm_kernel.h"

extern "C" __global__ __aicore__ void deep_norm(GM_ADDR x, GM_ADDR gx, GM_ADDR beta, GM_ADDR gamma, GM_ADDR mean, GM_ADDR rstd, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    row_norm_kernels::RowNormArgs args;
    args.in0 = x;
    args.in1 = gx;
    args.gamma = gamma;
    args.beta = beta;
    args.y = y;
    args.mean = mean;
    args.rstd = rstd;
    row_norm_kernels::RowNorm<DTYPE_X, row_norm_kernels::Pre::SCALE_ADD, row_norm_kernels::Norm::LAYER> op;
    op.Init(args, tilingData);
    op.Process();
}
