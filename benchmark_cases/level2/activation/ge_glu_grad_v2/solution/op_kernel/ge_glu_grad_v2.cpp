#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// gelu(v), tanh form: v / (1 + exp(-2c (v + k v^3))).
__aicore__ inline void GeluTanh(const LocalTensor<float>& g, const LocalTensor<float>& v, uint32_t n)
{
    constexpr float k2c = 1.5957691216057308f;  // 2 * sqrt(2 / pi)
    Mul(g, v, v, n);
    Muls(g, g, -k2c * 0.044715f, n);
    Adds(g, g, -k2c, n);
    Mul(g, g, v, n);
    Exp(g, g, n);
    Adds(g, g, 1.0f, n);
    Div(g, v, g, n);
}

// Q(v) = erfc(|v| / sqrt(2)) by Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7):
// Q = t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) exp(-v^2 / 2), t = 1 / (1 + p |v| / sqrt(2)).
// absV must hold |v|; q and e are written, e holds exp(-v^2 / 2) afterwards.
__aicore__ inline void ErfcHalf(const LocalTensor<float>& q, const LocalTensor<float>& e, const LocalTensor<float>& v,
                                const LocalTensor<float>& absV, uint32_t n)
{
    constexpr float kP = 0.3275911f * 0.7071067811865476f;
    Muls(e, absV, kP, n);
    Adds(e, e, 1.0f, n);
    Duplicate(q, 1.0f, n);
    Div(e, q, e, n);  // t
    Muls(q, e, 1.061405429f, n);
    Adds(q, q, -1.453152027f, n);
    Mul(q, q, e, n);
    Adds(q, q, 1.421413741f, n);
    Mul(q, q, e, n);
    Adds(q, q, -0.284496736f, n);
    Mul(q, q, e, n);
    Adds(q, q, 0.254829592f, n);
    Mul(q, q, e, n);
    Mul(e, v, v, n);
    Muls(e, e, -0.5f, n);
    Exp(e, e, n);
    Mul(q, q, e, n);
}

// d other = dy * gelu (the forward's gelu output, an input here); d gate = dy * other * gelu'(gate).
// tanh: gelu'(v) = (1 + 2 v u' e / (1 + e)) / (1 + e), e = exp(-2u) (exponent clamped at 80).
// erf:  gelu'(v) = 0.5 (1 + sign(v) (1 - Q(v))) + v exp(-v^2 / 2) / sqrt(2 pi).
struct GeGluGradV2Op {
    static constexpr uint32_t IN = 3, OUT = 1, IN_SPLIT = 2, OUT_SPLIT = 1, TMP = 2;
    float approximate;
    float activateLeft;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        constexpr float kC = 0.7978845608028654f;  // sqrt(2 / pi)
        constexpr float kK = 0.044715f;
        const bool left = activateLeft != 0.0f;
        const LocalTensor<float>& dy = in[0];
        const LocalTensor<float>& v = left ? in[1] : in[2];
        const LocalTensor<float>& other = left ? in[2] : in[1];
        const LocalTensor<float>& gelu = in[3];
        const LocalTensor<float>& dGate = left ? out[0] : out[1];
        const LocalTensor<float>& dOther = left ? out[1] : out[0];
        const LocalTensor<float>& t0 = tmp[0];
        const LocalTensor<float>& t1 = tmp[1];
        if (approximate != 0.0f) {
            Mul(dGate, v, v, n);
            Muls(t1, dGate, -2.0f * kC * kK, n);
            Adds(t1, t1, -2.0f * kC, n);
            Mul(t1, t1, v, n);
            Mins(t1, t1, 80.0f, n);
            Exp(t1, t1, n);                    // e
            Muls(dGate, dGate, 6.0f * kC * kK, n);
            Adds(dGate, dGate, 2.0f * kC, n);
            Mul(dGate, dGate, v, n);           // 2 v u'
            Mul(dGate, dGate, t1, n);
            Adds(t1, t1, 1.0f, n);
            Div(dGate, dGate, t1, n);
            Adds(dGate, dGate, 1.0f, n);
            Div(dGate, dGate, t1, n);
        } else {
            Abs(dOther, v, n);                 // |v| (dOther is free until the end)
            ErfcHalf(t0, t1, v, dOther, n);    // t0 = Q, t1 = exp(-v^2 / 2)
            Muls(t0, t0, -1.0f, n);
            Adds(t0, t0, 1.0f, n);             // 1 - Q
            Maxs(dGate, dOther, 1e-30f, n);
            Div(dGate, v, dGate, n);           // sign(v) (|v| >= 1e-30; below, 1 - Q is ~0 anyway)
            Mul(t0, t0, dGate, n);
            Muls(t0, t0, 0.5f, n);
            Adds(t0, t0, 0.5f, n);             // Phi(v)
            Mul(t1, t1, v, n);
            Muls(t1, t1, 0.3989422804014327f, n);  // v phi(v)
            Add(dGate, t0, t1, n);
        }
        Mul(dGate, dGate, other, n);
        Mul(dGate, dGate, dy, n);
        Mul(dOther, dy, gelu, n);
    }
};

extern "C" __global__ __aicore__ void ge_glu_grad_v2(GM_ADDR dy, GM_ADDR x, GM_ADDR gelu, GM_ADDR dx, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {dy, x, gelu};
    GM_ADDR outArgs[] = {dx};
    GeGluGradV2Op op{t.attr0, t.attr1};
    activation_kernels::RunElementwise<DTYPE_DY, GeGluGradV2Op>(inArgs, outArgs, shape, op);
}
