#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// d/dx [x sigmoid(1.702 x)] = (e1 + 1.702 x a / (1 + a)) / (1 + a), a = exp(-1.702 |x|),
// e1 = exp(0.851 (x - |x|)); every exponent is <= 0.
struct FastGeluGradOp {
    static constexpr uint32_t IN = 2, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 2;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& dy = in[0];
        const LocalTensor<float>& x = in[1];
        const LocalTensor<float>& z = out[0];
        const LocalTensor<float>& a = tmp[0];
        const LocalTensor<float>& e1 = tmp[1];
        Abs(a, x, n);
        Sub(e1, x, a, n);
        Muls(e1, e1, 0.851f, n);
        Exp(e1, e1, n);
        Muls(a, a, -1.702f, n);
        Exp(a, a, n);
        Mul(z, x, a, n);
        Muls(z, z, 1.702f, n);
        Adds(a, a, 1.0f, n);
        Div(z, z, a, n);
        Add(z, z, e1, n);
        Div(z, z, a, n);
        Mul(z, z, dy, n);
    }
};

extern "C" __global__ __aicore__ void fast_gelu_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {dy, x};
    GM_ADDR outArgs[] = {z};
    FastGeluGradOp op{};
    activation_kernels::RunElementwise<DTYPE_DY, FastGeluGradOp>(inArgs, outArgs, shape, op);
}
