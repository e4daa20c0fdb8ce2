#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = min(x1_i, x2_i)
struct MinimumListOp : foreach::Lists<foreach::OpBase, 2> {
    FOREACH_COMPUTE { Min(out, in[0], in[1], n); }
};

extern "C" __global__ __aicore__ void foreach_minimum_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X1, MinimumListOp>({x1, x2}, y, tiling);
}
