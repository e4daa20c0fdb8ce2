#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x_i / scalars[i]
struct DivScalarListOp : foreach::OpBase {
    static constexpr uint32_t TMP = 1;
    GM_ADDR scalars;
    float s = 0.0f;
    __aicore__ inline void SetTensor(uint32_t t) { s = foreach::ReadScalar(scalars, t); }
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Duplicate(tmp[0], s, n);
        Div(out, in[0], tmp[0], n);
    }
};

extern "C" __global__ __aicore__ void foreach_div_scalar_list(GM_ADDR x, GM_ADDR scalars, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x};
    DivScalarListOp op{{}, scalars};
    foreach::Run<DTYPE_X>(lists, y, FOREACH_SPLIT(t), op);
}
