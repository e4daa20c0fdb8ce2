#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// y = sigmoid(x * a) * b + c, all in float32 in UB:
//   s = 1 / (1 + exp(-(x * a)));  y = s * b + c
struct MulSigmoidMulAddOp {
    static constexpr uint32_t IN = 4, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 1;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& y = out[0];
        const LocalTensor<float>& s = tmp[0];
        Mul(s, in[0], in[1], n);
        Muls(s, s, -1.0f, n);
        Exp(s, s, n);
        Adds(s, s, 1.0f, n);
        Div(y, in[2], s, n);  // b * sigmoid(x * a) = b / (1 + exp(-x * a))
        Add(y, y, in[3], n);
    }
};

extern "C" __global__ __aicore__ void mul_sigmoid_mul_add_custom(GM_ADDR x, GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR y,
                                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR in[] = {x, a, b, c};
    GM_ADDR out[] = {y};
    activation_kernels::RunElementwise<DTYPE_X, MulSigmoidMulAddOp>(in, out, shape, MulSigmoidMulAddOp{});
}
