#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i + weight * (x2_i - x1_i)
struct LerpScalarOp : foreach::Lists<foreach::ScalarBase, 2> {
    FOREACH_COMPUTE
    {
        Sub(in[1], in[1], in[0], n);
        Muls(in[1], in[1], s, n);
        Add(out, in[0], in[1], n);
    }
};

extern "C" __global__ __aicore__ void foreach_lerp_scalar(GM_ADDR x1, GM_ADDR x2, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X1, LerpScalarOp>({x1, x2}, y, tiling, weight);
}
