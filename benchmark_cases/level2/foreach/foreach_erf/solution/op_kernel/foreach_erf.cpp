#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = erf(x_i)
struct ErfOp : foreach::OpBase {
    FOREACH_COMPUTE { Erf(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_erf(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, ErfOp>({x}, y, tiling);
}
