#include "elementwise_kernel.h"
using namespace AscendC;

// |x|: Abs for half/float, max(x, -x) for int32, float32 round trip (exact) for bfloat16.
struct AbsOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        if constexpr (std::is_same_v<T, int32_t>) {
            LocalTensor<int32_t> neg = c.Plane<int32_t>(0);
            Muls(neg, x[0], static_cast<int32_t>(-1), c.n);
            Max(y, x[0], neg, c.n);
        } else if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> f = elementwise_kernels::ToFloat(x[0], c, 0);
            Abs(f, f, c.n);
            elementwise_kernels::StoreFloat(y, f, c);
        } else {
            Abs(y, x[0], c.n);
        }
    }
};

extern "C" __global__ __aicore__ void abs_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Y, 1>(AbsOp{}, in, y, t);
}
