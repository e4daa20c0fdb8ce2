#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// da = dy * b * s (1 + a (1 - s)), db = dy * silu(a), s = sigmoid(a) = 1 / d, d = 1 + e, e = exp(-a)
// (exponent clamped at 80 so that e stays finite; then s, silu and da are ~0 as they should be).
struct SwiGluGradOp {
    static constexpr uint32_t IN = 2, OUT = 1, IN_SPLIT = 2, OUT_SPLIT = 1, TMP = 1;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& dy = in[0];
        const LocalTensor<float>& a = in[1];
        const LocalTensor<float>& b = in[2];
        const LocalTensor<float>& da = out[0];
        const LocalTensor<float>& db = out[1];
        const LocalTensor<float>& d = tmp[0];
        Muls(da, a, -1.0f, n);
        Mins(da, da, 80.0f, n);
        Exp(da, da, n);                        // e
        Adds(d, da, 1.0f, n);                  // d = 1 + e
        Div(db, a, d, n);                      // silu(a)
        Mul(db, db, dy, n);
        Mul(da, da, a, n);
        Div(da, da, d, n);                     // a (1 - s)
        Adds(da, da, 1.0f, n);
        Div(da, da, d, n);                     // s (1 + a (1 - s))
        Mul(da, da, b, n);
        Mul(da, da, dy, n);
    }
};

extern "C" __global__ __aicore__ void swi_glu_grad(GM_ADDR dy, GM_ADDR x, GM_ADDR dx, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {dy, x};
    GM_ADDR outArgs[] = {dx};
    SwiGluGradOp op{};
    activation_kernels::RunElementwise<DTYPE_DY, SwiGluGradOp>(inArgs, outArgs, shape, op);
}
