#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = scalar ** x_i
struct PowScalarAndTensorOp : foreach::ScalarBase {
    FOREACH_COMPUTE { Power(out, s, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_pow_scalar_and_tensor(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, PowScalarAndTensorOp>({x}, y, tiling, scalar);
}
