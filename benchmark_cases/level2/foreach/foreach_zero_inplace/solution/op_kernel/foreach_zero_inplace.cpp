#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// x_i = 0 for every element (in place)
struct ZeroInplaceOp : foreach::Lists<foreach::OpBase, 0> {
    FOREACH_COMPUTE { Duplicate(out, 0.0f, n); }
};

extern "C" __global__ __aicore__ void foreach_zero_inplace(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, ZeroInplaceOp>({x}, y, tiling);
}
