#include "elementwise_kernel.h"
using namespace AscendC;

// Tensor bounds: y = min(max(x, lo), hi) elementwise.
struct ClipTensorOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> v = elementwise_kernels::ToFloat(x[0], c, 0);
            LocalTensor<float> lo = elementwise_kernels::ToFloat(x[1], c, 1);
            LocalTensor<float> hi = elementwise_kernels::ToFloat(x[2], c, 2);
            Max(v, v, lo, c.n);
            Min(v, v, hi, c.n);
            elementwise_kernels::StoreFloat(y, v, c);
        } else {
            Max(y, x[0], x[1], c.n);
            Min(y, y, x[2], c.n);
        }
    }
};

// One-element bounds, read once from GM: y = Mins(Maxs(x, lo), hi).
template <typename S>
struct ClipScalarOp {
    S lo;
    S hi;
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> v = elementwise_kernels::ToFloat(x[0], c, 0);
            Maxs(v, v, lo, c.n);
            Mins(v, v, hi, c.n);
            elementwise_kernels::StoreFloat(y, v, c);
        } else {
            Maxs(y, x[0], lo, c.n);
            Mins(y, y, hi, c.n);
        }
    }
};

template <typename T, class Tiling>
__aicore__ inline void ClipScalar(GM_ADDR x, GM_ADDR clipMin, GM_ADDR clipMax, GM_ADDR y, const Tiling& t)
{
    using S = std::conditional_t<std::is_same_v<T, bfloat16_t>, float, T>;
    GlobalTensor<T> bound;
    bound.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(clipMin), 1);
    const S lo = static_cast<S>(bound.GetValue(0));
    bound.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(clipMax), 1);
    const S hi = static_cast<S>(bound.GetValue(0));
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<T, T, 1>(ClipScalarOp<S>{lo, hi}, in, y, t);
}

extern "C" __global__ __aicore__ void clip_by_value(GM_ADDR x, GM_ADDR clip_min, GM_ADDR clip_max, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (t.mode == 1) {
        ClipScalar<DTYPE_X>(x, clip_min, clip_max, y, t);
        return;
    }
    GM_ADDR in[3] = {x, clip_min, clip_max};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Y, 3>(ClipTensorOp{}, in, y, t);
}
