#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = 1 / x_i
struct ReciprocalOp : foreach::OpBase {
    static constexpr uint32_t TMP = 1;
    FOREACH_COMPUTE
    {
        Duplicate(tmp[0], 1.0f, n);
        Div(out, tmp[0], in[0], n);  // exact division, not the approximate Reciprocal
    }
};

extern "C" __global__ __aicore__ void foreach_reciprocal(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, ReciprocalOp>({x}, y, tiling);
}
