#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = exp(x_i)
struct ExpOp : foreach::OpBase {
    FOREACH_COMPUTE { Exp(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_exp(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, ExpOp>({x}, y, tiling);
}
