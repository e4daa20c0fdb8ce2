#include "elementwise_kernel.h"
using namespace AscendC;

// start + weight * (end - start) in float32.
struct LerpOp {
    float value;
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        LocalTensor<float> a = elementwise_kernels::ToFloat(x[0], c, 0);
        LocalTensor<float> b = elementwise_kernels::ToFloat(x[1], c, 1);
        LocalTensor<float> d = elementwise_kernels::ToFloat(x[2], c, 2);
        LocalTensor<float> r = elementwise_kernels::FloatOut(y, c, 0);
        Sub(b, b, a, c.n);
        Mul(b, b, d, c.n);
        Add(r, a, b, c.n);
        (void)value;
        elementwise_kernels::StoreFloat(y, r, c);
    }
};

extern "C" __global__ __aicore__ void lerp(GM_ADDR start, GM_ADDR end, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[3] = {start, end, weight};
    elementwise_kernels::Run<DTYPE_START, DTYPE_Y, 3>(LerpOp{t.scalar0}, in, y, t);
}
