#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = tanh(x_i)
struct TanhOp : foreach::OpBase {
    FOREACH_COMPUTE { Tanh(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_tanh(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, TanhOp>({x}, y, tiling);
}
