#include "elementwise_kernel.h"
using namespace AscendC;

// Cephes rational approximation of Spence's function on [0.5, 1.5] with the reflection (x < 0.5) and
// inversion (x > 1.5, x > 2) identities, branch-free: every branch is computed on the whole tile and
// merged with Compare + Select masks. All arithmetic in float32.
constexpr float SPENCE_A[8] = {4.65128586073990045278e-5f, 7.31589045238094711071e-3f, 1.33847639578309018650e-1f,
                               8.79691311754530315341e-1f, 2.71149851196553469920e0f,  4.25697156008121755724e0f,
                               3.29771340985225106936e0f,  1.00000000000000000126e0f};
constexpr float SPENCE_B[8] = {6.90990488912553276999e-4f, 2.54043763932544379113e-2f, 2.82974860602568089943e-1f,
                               1.41172597751831069617e0f,  3.63800533345137075418e0f,  5.03278880143316990390e0f,
                               3.54771340985225096217e0f,  9.99999999999999998740e-1f};
constexpr float PI2_6 = 1.64493406684822643647f;

struct SpenceOp {
    __aicore__ inline static void Poly(const LocalTensor<float>& acc, const LocalTensor<float>& w, const float* coef,
                                       uint32_t n)
    {
        Duplicate(acc, coef[0], n);
        for (int i = 1; i < 8; ++i) {
            Mul(acc, acc, w, n);
            Adds(acc, acc, coef[i], n);
        }
    }

    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        const uint32_t n = c.nAligned;
        LocalTensor<float> f = c.Plane<float>(0);
        if constexpr (std::is_same_v<T, float>) {
            f = x[0];
        } else {
            Cast(f, x[0], RoundMode::CAST_NONE, n);
        }
        LocalTensor<float> x1 = c.Plane<float>(1);
        LocalTensor<float> w = c.Plane<float>(2);
        LocalTensor<float> p = c.Plane<float>(3);
        LocalTensor<float> q = c.Plane<float>(4);
        LocalTensor<float> t = c.Plane<float>(5);
        LocalTensor<float> k = c.Plane<float>(6);
        LocalTensor<uint8_t> masks = c.Plane<uint8_t>(7);
        const uint32_t maskBytes = c.tile / 8;
        LocalTensor<uint8_t> mInv = masks;
        LocalTensor<uint8_t> mHigh = masks[maskBytes];
        LocalTensor<uint8_t> mLow = masks[2 * maskBytes];
        LocalTensor<uint8_t> mB = masks[3 * maskBytes];

        // x1 = x > 2 ? 1 / x : x
        Duplicate(k, 2.0f, n);
        Compare(mInv, f, k, CMPMODE::GT, n);
        Duplicate(k, 1.0f, n);
        Div(t, k, f, n);
        Select(x1, mInv, t, f, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        // w = x1 > 1.5 ? 1 / x1 - 1 : (x1 < 0.5 ? -x1 : x1 - 1)
        Duplicate(k, 1.5f, n);
        Compare(mHigh, x1, k, CMPMODE::GT, n);
        Duplicate(k, 0.5f, n);
        Compare(mLow, x1, k, CMPMODE::LT, n);
        Duplicate(k, 1.0f, n);
        Div(t, k, x1, n);
        Adds(t, t, -1.0f, n);
        Adds(w, x1, -1.0f, n);
        Select(w, mHigh, t, w, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        Muls(t, x1, -1.0f, n);
        Select(w, mLow, t, w, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        // y = -w P(w) / Q(w)
        Poly(p, w, SPENCE_A, n);
        Poly(q, w, SPENCE_B, n);
        Div(p, p, q, n);
        Mul(p, p, w, n);
        Muls(p, p, -1.0f, n);
        // reflection (x1 < 0.5): y = pi^2/6 - log(x1) log(1 - x1) - y
        Ln(q, x1, n);
        Muls(t, x1, -1.0f, n);
        Adds(t, t, 1.0f, n);
        Ln(t, t, n);
        Mul(t, t, q, n);
        Add(t, t, p, n);
        Muls(t, t, -1.0f, n);
        Adds(t, t, PI2_6, n);
        Select(p, mLow, t, p, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        // inversion (x > 2 or x1 > 1.5): y = -log(x1)^2 / 2 - y
        Mul(t, q, q, n);
        Muls(t, t, -0.5f, n);
        Sub(t, t, p, n);
        Or(mB.ReinterpretCast<uint16_t>(), mInv.ReinterpretCast<uint16_t>(), mHigh.ReinterpretCast<uint16_t>(), n / 16);
        LocalTensor<float> r = elementwise_kernels::FloatOut(y, c, 0);
        Select(r, mB, t, p, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        elementwise_kernels::StoreFloat(y, r, c);
    }
};

extern "C" __global__ __aicore__ void spence(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Y, 1>(SpenceOp{}, in, y, t);
}
