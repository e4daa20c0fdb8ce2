#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = atan(x_i)
struct AtanOp : foreach::OpBase {
    FOREACH_COMPUTE { Atan(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_atan(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, AtanOp>({x}, y, tiling);
}
