#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = tan(x_i)
struct TanOp : foreach::OpBase {
    FOREACH_COMPUTE { Tan(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_tan(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, TanOp>({x}, y, tiling);
}
