#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = cosh(x_i)
struct CoshOp : foreach::OpBase {
    FOREACH_COMPUTE { Cosh(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_cosh(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, CoshOp>({x}, y, tiling);
}
