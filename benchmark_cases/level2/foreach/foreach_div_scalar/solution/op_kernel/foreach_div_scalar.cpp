#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i / scalar: foreach::DivsOp<foreach::ScalarBase> (foreach_kernel.h)

extern "C" __global__ __aicore__ void foreach_div_scalar(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, foreach::DivsOp<foreach::ScalarBase>>({x}, y, tiling, scalar);
}
