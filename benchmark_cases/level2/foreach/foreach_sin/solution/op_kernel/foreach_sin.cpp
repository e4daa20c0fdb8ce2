#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = sin(x_i)
struct SinOp : foreach::OpBase {
    FOREACH_COMPUTE { Sin(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_sin(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, SinOp>({x}, y, tiling);
}
