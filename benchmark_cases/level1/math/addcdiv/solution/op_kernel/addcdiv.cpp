#include "elementwise_kernel.h"
using namespace AscendC;

// input + value * tensor1 / tensor2 in float32; scalar0 = value.
struct AddcdivOp {
    float value;
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        LocalTensor<float> a = elementwise_kernels::ToFloat(x[0], c, 0);
        LocalTensor<float> b = elementwise_kernels::ToFloat(x[1], c, 1);
        LocalTensor<float> d = elementwise_kernels::ToFloat(x[2], c, 2);
        LocalTensor<float> r = elementwise_kernels::FloatOut(y, c, 0);
        Div(b, b, d, c.n);
        Muls(b, b, value, c.n);
        Add(r, a, b, c.n);
        elementwise_kernels::StoreFloat(y, r, c);
    }
};

extern "C" __global__ __aicore__ void addcdiv(GM_ADDR input, GM_ADDR tensor1, GM_ADDR tensor2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[3] = {input, tensor1, tensor2};
    elementwise_kernels::Run<DTYPE_INPUT, DTYPE_Y, 3>(AddcdivOp{t.scalar0}, in, y, t);
}
