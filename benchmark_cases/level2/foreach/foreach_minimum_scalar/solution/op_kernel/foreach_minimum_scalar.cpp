#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = min(x_i, scalar)
struct MinimumScalarOp : foreach::ScalarBase {
    FOREACH_COMPUTE { Mins(out, in[0], s, n); }
};

extern "C" __global__ __aicore__ void foreach_minimum_scalar(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, MinimumScalarOp>({x}, y, tiling, scalar);
}
