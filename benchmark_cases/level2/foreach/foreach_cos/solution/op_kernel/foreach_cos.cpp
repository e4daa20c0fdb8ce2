#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = cos(x_i)
struct CosOp : foreach::OpBase {
    FOREACH_COMPUTE { Cos(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_cos(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, CosOp>({x}, y, tiling);
}
