#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = ln(x_i)
struct LogOp : foreach::OpBase {
    FOREACH_COMPUTE { Ln(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_log(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, LogOp>({x}, y, tiling);
}
