#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i + scalars[i] * x2_i * x3_i (scalars: a device tensor): foreach::AddcOp<foreach::ScalarListBase, false> (foreach_kernel.h)

extern "C" __global__ __aicore__ void foreach_addcmul_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR scalars, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X1, foreach::AddcOp<foreach::ScalarListBase, false>>({x1, x2, x3}, y, tiling, scalars);
}
