#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i / scalars[i]: foreach::DivsOp<foreach::ScalarListBase> (foreach_kernel.h)

extern "C" __global__ __aicore__ void foreach_div_scalar_list(GM_ADDR x, GM_ADDR scalars, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, foreach::DivsOp<foreach::ScalarListBase>>({x}, y, tiling, scalars);
}
