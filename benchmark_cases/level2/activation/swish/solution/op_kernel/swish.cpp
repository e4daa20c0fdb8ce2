#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// y = x / (1 + exp(-scale x)); for scale x << 0 the exp is +inf and y is -0, as it should be.
struct SwishOp {
    static constexpr uint32_t IN = 1, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 0;
    float scale;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& x = in[0];
        const LocalTensor<float>& y = out[0];
        Muls(y, x, -scale, n);
        Exp(y, y, n);
        Adds(y, y, 1.0f, n);
        Div(y, x, y, n);
    }
};

extern "C" __global__ __aicore__ void swish(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {x};
    GM_ADDR outArgs[] = {y};
    SwishOp op{t.attr0};
    activation_kernels::RunElementwise<DTYPE_X, SwishOp>(inArgs, outArgs, shape, op);
}
