#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i (a copy)
struct CopyOp : foreach::OpBase {
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Muls(out, in[0], 1.0f, n);  // exact for every value, -0 and NaN included
    }
};

extern "C" __global__ __aicore__ void foreach_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x};
    CopyOp op{};
    foreach::Run<DTYPE_X>(lists, y, FOREACH_SPLIT(t), op);
}
