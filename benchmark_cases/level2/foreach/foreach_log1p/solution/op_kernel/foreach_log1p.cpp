#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = ln(1 + x_i)
struct Log1pOp : foreach::OpBase {
    FOREACH_COMPUTE
    {
        Adds(out, in[0], 1.0f, n);
        Ln(out, out, n);
    }
};

extern "C" __global__ __aicore__ void foreach_log1p(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, Log1pOp>({x}, y, tiling);
}
