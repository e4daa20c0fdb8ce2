#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = |x_i|
struct AbsOp : foreach::OpBase {
    FOREACH_COMPUTE { Abs(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_abs(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, AbsOp>({x}, y, tiling);
}
