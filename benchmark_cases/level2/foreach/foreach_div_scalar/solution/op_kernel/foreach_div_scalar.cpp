#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i / scalar
struct DivScalarOp : foreach::OpBase {
    static constexpr uint32_t TMP = 1;
    float s;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Duplicate(tmp[0], s, n);
        Div(out, in[0], tmp[0], n);
    }
};

extern "C" __global__ __aicore__ void foreach_div_scalar(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x};
    DivScalarOp op{{}, foreach::ReadScalar(scalar)};
    foreach::Run<DTYPE_X>(lists, y, FOREACH_SPLIT(t), op);
}
