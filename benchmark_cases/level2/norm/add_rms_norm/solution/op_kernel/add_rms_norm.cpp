#include "kernel_operator.h"
#include "row_norm_kernel.h"

extern "C" __global__ __aicore__ void add_rms_norm(GM_ADDR x1, GM_ADDR x2, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd,
                                                   GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    l2b::RowNormArgs args;
    args.in0 = x1;
    args.in1 = x2;
    args.gamma = gamma;
    args.y = y;
    args.rstd = rstd;
    args.xsum = x;
    l2b::RowNorm<DTYPE_X1, l2b::Pre::ADD, l2b::Norm::RMS> op;
    op.Init(args, tilingData);
    op.Process();
}
