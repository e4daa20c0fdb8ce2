#include "elementwise_kernel.h"
using namespace AscendC;

// x - x is 0 for finite x and NaN for NaN/Inf; NaN == NaN is false.
struct IsFiniteOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<uint8_t>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        const uint32_t p = std::is_same_v<T, bfloat16_t> ? 1 : 0;
        LocalTensor<uint8_t> mask = c.Plane<uint8_t>(p);
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> f = c.Plane<float>(0);
            Cast(f, x[0], RoundMode::CAST_NONE, c.nAligned);
            Sub(f, f, f, c.nAligned);
            Compare(mask, f, f, CMPMODE::EQ, c.nAligned);
        } else {
            Sub(x[0], x[0], x[0], c.nAligned);
            Compare(mask, x[0], x[0], CMPMODE::EQ, c.nAligned);
        }
        elementwise_kernels::MaskToBool(y, mask, c, p + 1);
    }
};

extern "C" __global__ __aicore__ void is_finite(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, uint8_t, 1>(IsFiniteOp{}, in, y, t);
}
