#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = ln(1 + x_i)
struct Log1pOp : foreach::OpBase {
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Adds(out, in[0], 1.0f, n);
        Ln(out, out, n);
    }
};

extern "C" __global__ __aicore__ void foreach_log1p(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x};
    Log1pOp op{};
    foreach::Run<DTYPE_X>(lists, y, FOREACH_SPLIT(t), op);
}
