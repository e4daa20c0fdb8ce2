#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i + scalars[i]
struct AddScalarListOp : foreach::ScalarListBase {
    FOREACH_COMPUTE { Adds(out, in[0], s, n); }
};

extern "C" __global__ __aicore__ void foreach_add_scalar_list(GM_ADDR x, GM_ADDR scalars, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, AddScalarListOp>({x}, y, tiling, scalars);
}
