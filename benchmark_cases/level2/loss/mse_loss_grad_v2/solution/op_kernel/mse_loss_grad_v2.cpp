#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// grad = 2 * (predict - label) * dout * scale; scale = 1 / N for reduction "mean", else 1.
struct MseLossGradOp {
    static constexpr uint32_t IN = 3, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 0;
    float scale;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& y = out[0];
        Sub(y, in[0], in[1], n);
        Muls(y, y, 2.0f * scale, n);
        Mul(y, y, in[2], n);
    }
};

extern "C" __global__ __aicore__ void mse_loss_grad_v2(GM_ADDR predict, GM_ADDR label, GM_ADDR dout, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {predict, label, dout};
    GM_ADDR outArgs[] = {y};
    MseLossGradOp op{t.attr0};
    activation_kernels::RunElementwise<DTYPE_PREDICT, MseLossGradOp>(inArgs, outArgs, shape, op);
}
