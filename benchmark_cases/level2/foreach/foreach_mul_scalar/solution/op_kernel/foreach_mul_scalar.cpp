#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i * scalar
struct MulScalarOp : foreach::ScalarBase {
    FOREACH_COMPUTE { Muls(out, in[0], s, n); }
};

extern "C" __global__ __aicore__ void foreach_mul_scalar(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, MulScalarOp>({x}, y, tiling, scalar);
}
