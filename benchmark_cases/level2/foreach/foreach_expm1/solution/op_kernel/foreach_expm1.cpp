#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = exp(x_i) - 1
struct Expm1Op : foreach::OpBase {
    FOREACH_COMPUTE
    {
        Exp(out, in[0], n);
        Adds(out, out, -1.0f, n);
    }
};

extern "C" __global__ __aicore__ void foreach_expm1(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, Expm1Op>({x}, y, tiling);
}
