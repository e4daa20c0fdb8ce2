#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = 1 / (1 + exp(-x_i))
struct SigmoidOp : foreach::OpBase {
    FOREACH_COMPUTE { Sigmoid(out, in[0], n); }
};

extern "C" __global__ __aicore__ void foreach_sigmoid(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, SigmoidOp>({x}, y, tiling);
}
