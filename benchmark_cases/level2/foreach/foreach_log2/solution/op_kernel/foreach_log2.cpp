#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = log2(x_i)
struct Log2Op : foreach::OpBase {
    FOREACH_COMPUTE { Log2(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_log2(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, Log2Op>({x}, y, tiling);
}
