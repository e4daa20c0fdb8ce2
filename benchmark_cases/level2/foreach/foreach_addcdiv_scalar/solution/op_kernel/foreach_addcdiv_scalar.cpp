#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i + scalar * x2_i / x3_i: foreach::AddcOp<foreach::ScalarBase, true> (foreach_kernel.h)

extern "C" __global__ __aicore__ void foreach_addcdiv_scalar(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X1, foreach::AddcOp<foreach::ScalarBase, true>>({x1, x2, x3}, y, tiling, scalar);
}
