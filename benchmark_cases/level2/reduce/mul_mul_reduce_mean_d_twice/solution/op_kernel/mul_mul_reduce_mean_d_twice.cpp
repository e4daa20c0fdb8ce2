#include "kernel_operator.h"
#include "row_norm_kernel.h"

// t = x1 * x2 * x3 is formed in float32 in UB; the first ReduceMean (mean of t) and the second
// (mean of (t - mean)^2) are per-row ReduceSums scaled by 1/D inside the row-norm base.
extern "C" __global__ __aicore__ void mul_mul_reduce_mean_d_twice(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR gamma,
                                                                  GM_ADDR beta, GM_ADDR y, GM_ADDR workspace,
                                                                  GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    row_norm_kernels::RowNormArgs args;
    args.in0 = x1;
    args.in1 = x2;
    args.in2 = x3;
    args.gamma = gamma;
    args.beta = beta;
    args.y = y;
    row_norm_kernels::RowNorm<DTYPE_X1, row_norm_kernels::Pre::MUL3, row_norm_kernels::Norm::LAYER> op;
    op.Init(args, tilingData);
    op.Process();
}
