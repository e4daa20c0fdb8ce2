#include "elementwise_kernel.h"
using namespace AscendC;

// One Cast instruction per tile: round to nearest even when narrowing floats, truncation toward zero into
// integers, exact widening otherwise.
template <typename TI, typename TO>
__aicore__ constexpr RoundMode CastMode()
{
    if constexpr (std::is_same_v<TO, int32_t> || std::is_same_v<TO, int8_t>) {
        return RoundMode::CAST_TRUNC;
    } else if constexpr (sizeof(TO) < sizeof(TI) && !std::is_same_v<TI, int32_t>) {
        return RoundMode::CAST_RINT;
    } else {
        return RoundMode::CAST_NONE;
    }
}

struct CastOp {
    template <typename TO, typename TI>
    __aicore__ inline void operator()(const LocalTensor<TO>& y, const LocalTensor<TI>* x, const elementwise_kernels::Ctx& c) const
    {
        Cast(y, x[0], CastMode<TI, TO>(), c.n);
    }
};

extern "C" __global__ __aicore__ void cast_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Y, 1>(CastOp{}, in, y, t);
}
