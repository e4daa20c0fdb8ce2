#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = sign(x_i) (-1, 0 or 1)
struct SignOp : foreach::OpBase {
    FOREACH_COMPUTE { Sign(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_sign(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, SignOp>({x}, y, tiling);
}
