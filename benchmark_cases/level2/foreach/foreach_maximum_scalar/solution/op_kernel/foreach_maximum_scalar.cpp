#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = max(x_i, scalar)
struct MaximumScalarOp : foreach::ScalarBase {
    FOREACH_COMPUTE { Maxs(out, in[0], s, n); }
};

extern "C" __global__ __aicore__ void foreach_maximum_scalar(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, MaximumScalarOp>({x}, y, tiling, scalar);
}
