#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = log10(x_i)
struct Log10Op : foreach::OpBase {
    FOREACH_COMPUTE { Log10(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_log10(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, Log10Op>({x}, y, tiling);
}
