#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = -x_i
struct NegOp : foreach::OpBase {
    FOREACH_COMPUTE { Muls(out, in[0], -1.0f, n); }
};

extern "C" __global__ __aicore__ void foreach_neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, NegOp>({x}, y, tiling);
}
