#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = sinh(x_i)
struct SinhOp : foreach::OpBase {
    FOREACH_COMPUTE { Sinh(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_sinh(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, SinhOp>({x}, y, tiling);
}
