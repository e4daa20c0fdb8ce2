#include "kernel_operator.h"
#include "optimizer_kernel.h"
using namespace AscendC;

// One AdamW step on float32 copies of the tensors (t[0] var, t[1] m, t[2] v, [t[3] max], then grad).
// Without amsgrad max_grad_norm is neither read nor written.
template <bool AMSGRAD>
struct AdamWOp {
    static constexpr uint32_t N = AMSGRAD ? 5 : 4;
    static constexpr uint32_t NOUT = AMSGRAD ? 4 : 3;
    static constexpr uint32_t TMP = 1;
    float lr, beta1, beta2, eps, decay, stepSize, invBc2;
    bool maximize;

    __aicore__ inline void operator()(const LocalTensor<float>* t, const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>& var = t[0];
        const LocalTensor<float>& m = t[1];
        const LocalTensor<float>& v = t[2];
        const LocalTensor<float>& g = t[N - 1];
        const LocalTensor<float>& u = tmp[0];
        if (maximize) {
            Muls(g, g, -1.0f, n);
        }
        Muls(var, var, decay, n);                // decoupled weight decay
        Muls(m, m, beta1, n);
        Muls(u, g, 1.0f - beta1, n);
        Add(m, m, u, n);                         // m = beta1 m + (1 - beta1) g
        Mul(u, g, g, n);
        Muls(u, u, 1.0f - beta2, n);
        Muls(v, v, beta2, n);
        Add(v, v, u, n);                         // v = beta2 v + (1 - beta2) g^2
        if constexpr (AMSGRAD) {
            Max(t[3], t[3], v, n);
            Muls(u, t[3], invBc2, n);
        } else {
            Muls(u, v, invBc2, n);
        }
        Sqrt(u, u, n);
        Adds(u, u, eps, n);
        Div(u, m, u, n);
        Muls(u, u, stepSize, n);
        Sub(var, var, u, n);                     // var -= lr / bc1 * m / (sqrt(v / bc2) + eps)
    }
};

template <bool AMSGRAD, typename TD>
__aicore__ inline void RunAdamW(GM_ADDR const* in, GM_ADDR const* out, const TD& t, int64_t step)
{
    AdamWOp<AMSGRAD> op;
    op.lr = t.lr;
    op.beta1 = t.beta1;
    op.beta2 = t.beta2;
    op.eps = t.eps;
    op.decay = 1.0f - t.lr * t.weightDecay;
    op.stepSize = t.lr / (1.0f - optimizer_kernels::PowStep(t.beta1, step));
    op.invBc2 = 1.0f / (1.0f - optimizer_kernels::PowStep(t.beta2, step));
    op.maximize = t.flag1 != 0;
    optimizer_kernels::OptimUpdate<DTYPE_VAR, AdamWOp<AMSGRAD>> kernel;
    kernel.Init(in, out, optimizer_kernels::OptimRange{t.totalLength, t.bigCoreNum, t.blocksPerCore, t.tileLength});
    kernel.Process(op);
}

extern "C" __global__ __aicore__ void apply_adam_w_v2(GM_ADDR var, GM_ADDR m, GM_ADDR v, GM_ADDR max_grad_norm,
                                                      GM_ADDR grad, GM_ADDR step, GM_ADDR var_out, GM_ADDR m_out,
                                                      GM_ADDR v_out, GM_ADDR max_grad_norm_out, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int64_t> stepGm;
    stepGm.SetGlobalBuffer((__gm__ int64_t*)step, 1);
    const int64_t s = stepGm.GetValue(0);
    if (t.flag0 != 0) {
        GM_ADDR in[] = {var, m, v, max_grad_norm, grad};
        GM_ADDR out[] = {var_out, m_out, v_out, max_grad_norm_out};
        RunAdamW<true>(in, out, t, s);
    } else {
        GM_ADDR in[] = {var, m, v, grad};
        GM_ADDR out[] = {var_out, m_out, v_out};
        RunAdamW<false>(in, out, t, s);
    }
}
