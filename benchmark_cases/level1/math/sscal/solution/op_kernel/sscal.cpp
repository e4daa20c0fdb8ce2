#include "elementwise_kernel.h"
using namespace AscendC;

// float32 vector scaled in place in UB; scalar0 = alpha.
struct SscalOp {
    float scalar;
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        // float32 planes: narrow dtypes use plane 0 for the widened input and result.
        const uint32_t p = std::is_same_v<T, float> ? 0 : 1;
        LocalTensor<float> f = elementwise_kernels::ToFloat(x[0], c, 0);
        LocalTensor<float> r = elementwise_kernels::FloatOut(y, c, 0);
        Muls(r, f, scalar, c.n);
        (void)p;
        elementwise_kernels::StoreFloat(y, r, c);
    }
};

extern "C" __global__ __aicore__ void sscal(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Y, 1>(SscalOp{t.scalar0}, in, y, t);
}
