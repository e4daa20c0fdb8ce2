#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i + alpha * x2_i: foreach::AlphaOp<false> (foreach_kernel.h)

extern "C" __global__ __aicore__ void foreach_add_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR alpha, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X1, foreach::AlphaOp<false>>({x1, x2}, y, tiling, alpha);
}
