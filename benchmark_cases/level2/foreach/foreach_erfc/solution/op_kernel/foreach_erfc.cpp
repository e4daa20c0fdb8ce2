#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = erfc(x_i) = 1 - erf(x_i)
struct ErfcOp : foreach::OpBase {
    FOREACH_COMPUTE { Erfc(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_erfc(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, ErfcOp>({x}, y, tiling);
}
