#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = sqrt(x_i)
struct SqrtOp : foreach::OpBase {
    FOREACH_COMPUTE { Sqrt(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, SqrtOp>({x}, y, tiling);
}
