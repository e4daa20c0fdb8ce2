#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = acos(x_i)
struct AcosOp : foreach::OpBase {
    FOREACH_COMPUTE { Acos(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_acos(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, AcosOp>({x}, y, tiling);
}
