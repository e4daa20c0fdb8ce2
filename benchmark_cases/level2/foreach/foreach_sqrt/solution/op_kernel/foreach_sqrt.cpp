#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = sqrt(x_i)
struct SqrtOp : foreach::OpBase {
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Sqrt(out, in[0], n);
    }
};

extern "C" __global__ __aicore__ void foreach_sqrt(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x};
    SqrtOp op{};
    foreach::Run<DTYPE_X>(lists, y, FOREACH_SPLIT(t), op);
}
