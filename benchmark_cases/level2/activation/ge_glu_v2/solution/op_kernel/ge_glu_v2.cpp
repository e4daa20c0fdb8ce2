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

// gelu = gelu(gate), y = other * gelu; gate is the right half unless activateLeft.
// Erf form: gelu(v) = 0.5 (v + |v| - |v| Q(v)), which is exact in sign for both branches.
struct GeGluV2Op {
    static constexpr uint32_t IN = 1, OUT = 2, IN_SPLIT = 1, OUT_SPLIT = 0, TMP = 2;
    float approximate;   // 1: tanh, 0: erf
    float activateLeft;  // 1: gelu on the first half
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const bool left = activateLeft != 0.0f;
        const LocalTensor<float>& gate = left ? in[0] : in[1];
        const LocalTensor<float>& other = left ? in[1] : in[0];
        const LocalTensor<float>& y = out[0];
        const LocalTensor<float>& g = out[1];
        if (approximate != 0.0f) {
            GeluTanh(g, gate, n);
        } else {
            Abs(g, gate, n);
            ErfcHalf(tmp[0], tmp[1], gate, g, n);
            Mul(tmp[0], tmp[0], g, n);
            Add(g, g, gate, n);
            Sub(g, g, tmp[0], n);
            Muls(g, g, 0.5f, n);
        }
        Mul(y, other, g, n);
    }
};

extern "C" __global__ __aicore__ void ge_glu_v2(GM_ADDR x, GM_ADDR y, GM_ADDR gelu, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {x};
    GM_ADDR outArgs[] = {y, gelu};
    GeGluV2Op op{t.attr0, t.attr1};
    activation_kernels::RunElementwise<DTYPE_X, GeGluV2Op>(inArgs, outArgs, shape, op);
}
