#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// out = silu(a) * b = a / (1 + exp(-a)) * b; a and b are the two halves of x.
struct SwiGluOp {
    static constexpr uint32_t IN = 1, OUT = 1, IN_SPLIT = 1, OUT_SPLIT = 0, TMP = 0;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& a = in[0];
        const LocalTensor<float>& b = in[1];
        const LocalTensor<float>& y = out[0];
        Muls(y, a, -1.0f, n);
        Exp(y, y, n);
        Adds(y, y, 1.0f, n);
        Div(y, a, y, n);
        Mul(y, y, b, n);
    }
};

extern "C" __global__ __aicore__ void swi_glu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {x};
    GM_ADDR outArgs[] = {y};
    SwiGluOp op{};
    activation_kernels::RunElementwise<DTYPE_X, SwiGluOp>(inArgs, outArgs, shape, op);
}
