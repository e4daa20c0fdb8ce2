#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = asin(x_i)
struct AsinOp : foreach::OpBase {
    FOREACH_COMPUTE { Asin(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_asin(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, AsinOp>({x}, y, tiling);
}
