#include "elementwise_kernel.h"
using namespace AscendC;

// -x: Muls by -1 (exact) in half/float/int32, through float32 for bfloat16.
struct NegOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> f = elementwise_kernels::ToFloat(x[0], c, 0);
            Muls(f, f, -1.0f, c.n);
            elementwise_kernels::StoreFloat(y, f, c);
        } else {
            Muls(y, x[0], static_cast<T>(-1), c.n);
        }
    }
};

extern "C" __global__ __aicore__ void neg(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Y, 1>(NegOp{}, in, y, t);
}
