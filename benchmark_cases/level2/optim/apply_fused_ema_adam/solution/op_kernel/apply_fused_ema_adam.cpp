#include "kernel_operator.h"
#include "optimizer_kernel.h"
using namespace AscendC;

// One fused Adam + EMA step on float32 copies: t[0] var, t[1] m, t[2] v, t[3] s, t[4] grad.
struct FusedEmaAdamOp {
    static constexpr uint32_t N = 5;
    static constexpr uint32_t NOUT = 4;
    static constexpr uint32_t TMP = 2;
    float lr, emaDecay, beta1, beta2, eps, weightDecay, invC1, invC2;
    uint32_t mode;

    __aicore__ inline void operator()(const LocalTensor<float>* t, const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& var = t[0];
        const LocalTensor<float>& m = t[1];
        const LocalTensor<float>& v = t[2];
        const LocalTensor<float>& s = t[3];
        const LocalTensor<float>& g = t[4];
        const LocalTensor<float>& u = tmp[0];
        const LocalTensor<float>& w = tmp[1];
        if (mode == 0) {
            Muls(w, var, weightDecay, n);
            Add(g, g, w, n);                       // L2: g += weight_decay * var
        }
        Muls(m, m, beta1, n);
        Muls(u, g, 1.0f - beta1, n);
        Add(m, m, u, n);
        Mul(u, g, g, n);
        Muls(u, u, 1.0f - beta2, n);
        Muls(v, v, beta2, n);
        Add(v, v, u, n);
        Muls(u, v, invC2, n);
        Sqrt(u, u, n);
        Adds(u, u, eps, n);
        Div(u, m, u, n);
        Muls(u, u, invC1, n);                      // update = (m / c1) / (sqrt(v / c2) + eps)
        if (mode == 1) {
            Muls(w, var, weightDecay, n);
            Add(u, u, w, n);                       // decoupled: update += weight_decay * var
        }
        Muls(u, u, lr, n);
        Sub(var, var, u, n);
        Muls(s, s, emaDecay, n);
        Muls(u, var, 1.0f - emaDecay, n);
        Add(s, s, u, n);                           // s = ema s + (1 - ema) var_new
    }
};

extern "C" __global__ __aicore__ void apply_fused_ema_adam(GM_ADDR grad, GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR s,
                                                           GM_ADDR step, GM_ADDR var_out, GM_ADDR m_out,
                                                           GM_ADDR v_out, GM_ADDR s_out, GM_ADDR workspace,
                                                           GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int64_t> stepGm;
    stepGm.SetGlobalBuffer((__gm__ int64_t*)step, 1);
    const int64_t k = stepGm.GetValue(0);
    FusedEmaAdamOp op;
    op.lr = t.lr;
    op.emaDecay = t.emaDecay;
    op.beta1 = t.beta1;
    op.beta2 = t.beta2;
    op.eps = t.eps;
    op.weightDecay = t.weightDecay;
    op.mode = t.flag0;
    op.invC1 = t.flag1 != 0 ? 1.0f / (1.0f - optimizer_kernels::PowStep(t.beta1, k)) : 1.0f;
    op.invC2 = t.flag1 != 0 ? 1.0f / (1.0f - optimizer_kernels::PowStep(t.beta2, k)) : 1.0f;
    GM_ADDR in[] = {var, m, v, s, grad};
    GM_ADDR out[] = {var_out, m_out, v_out, s_out};
    optimizer_kernels::OptimUpdate<DTYPE_VAR, FusedEmaAdamOp> kernel;
    kernel.Init(in, out, optimizer_kernels::OptimRange{t.totalLength, t.bigCoreNum, t.blocksPerCore, t.tileLength});
    kernel.Process(op);
}
