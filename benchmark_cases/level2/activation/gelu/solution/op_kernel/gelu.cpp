#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// y = x / (1 + exp(-2c (x + 0.044715 x^3))), c = sqrt(2/pi): the tanh form of gelu written with one exp.
struct GeluOp {
    static constexpr uint32_t IN = 1, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 0;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        constexpr float k2c = 1.5957691216057308f;  // 2 * sqrt(2 / pi)
        const LocalTensor<float>& x = in[0];
        const LocalTensor<float>& y = out[0];
        Mul(y, x, x, n);
        Muls(y, y, -k2c * 0.044715f, n);
        Adds(y, y, -k2c, n);
        Mul(y, y, x, n);
        Exp(y, y, n);
        Adds(y, y, 1.0f, n);
        Div(y, x, y, n);
    }
};

extern "C" __global__ __aicore__ void gelu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {x};
    GM_ADDR outArgs[] = {y};
    GeluOp op{};
    activation_kernels::RunElementwise<DTYPE_X, GeluOp>(inArgs, outArgs, shape, op);
}
