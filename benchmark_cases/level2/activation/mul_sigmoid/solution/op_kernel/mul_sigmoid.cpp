#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// s = sigmoid(x1 * t1); s doubles where s < t2; out = s * x2 * t3.
// The compare and select work on whole 256-byte repeats: n is rounded up inside the tile (the
// padding lanes are computed but never copied out).
struct MulSigmoidOp {
    static constexpr uint32_t IN = 2, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 2;
    float t1, t2, t3;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const uint32_t nr = (n + 63) / 64 * 64;
        const LocalTensor<float>& x1 = in[0];
        const LocalTensor<float>& x2 = in[1];
        const LocalTensor<float>& y = out[0];
        const LocalTensor<float>& s = tmp[0];
        LocalTensor<uint8_t> mask = tmp[1].ReinterpretCast<uint8_t>();
        Muls(s, x1, -t1, nr);
        Exp(s, s, nr);
        Adds(s, s, 1.0f, nr);
        Duplicate(y, 1.0f, nr);
        Div(s, y, s, nr);                      // sigmoid(x1 * t1)
        CompareScalar(mask, s, t2, CMPMODE::LT, nr);
        Muls(y, s, 2.0f, nr);
        Select(y, mask, y, s, SELMODE::VSEL_TENSOR_TENSOR_MODE, nr);
        Mul(y, y, x2, n);
        Muls(y, y, t3, n);
    }
};

extern "C" __global__ __aicore__ void mul_sigmoid(GM_ADDR x1, GM_ADDR x2, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {x1, x2};
    GM_ADDR outArgs[] = {out};
    MulSigmoidOp op{t.attr0, t.attr1, t.attr2};
    activation_kernels::RunElementwise<DTYPE_X1, MulSigmoidOp>(inArgs, outArgs, shape, op);
}
