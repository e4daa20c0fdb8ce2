#include "elementwise_kernel.h"
using namespace AscendC;

// |x| == +inf in float32 (widening is exact and keeps Inf/NaN).
struct IsInfOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<uint8_t>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        LocalTensor<float> f = c.Plane<float>(0);
        if constexpr (std::is_same_v<T, float>) {
            Abs(f, x[0], c.nAligned);
        } else {
            Cast(f, x[0], RoundMode::CAST_NONE, c.nAligned);
            Abs(f, f, c.nAligned);
        }
        LocalTensor<float> inf = c.Plane<float>(1);
        Duplicate(inf, __builtin_huge_valf(), c.nAligned);
        LocalTensor<uint8_t> mask = c.Plane<uint8_t>(2);
        Compare(mask, f, inf, CMPMODE::EQ, c.nAligned);
        elementwise_kernels::MaskToBool(y, mask, c, 3);
    }
};

extern "C" __global__ __aicore__ void is_inf(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, uint8_t, 1>(IsInfOp{}, in, y, t);
}
