#include "reduce_kernel.h"
using namespace AscendC;

// x * 0 is 0 for finite x and NaN for NaN/Inf; a tile's ReduceSum of it is NaN iff the tile has one.
struct NonFiniteOp {
    static constexpr uint32_t PLANES = 1;  // float32 copy of float16/bfloat16 tiles
    __aicore__ inline void Setup(const reduce_kernels::Scratch&) const {}
    __aicore__ inline reduce_kernels::Partial Identity() const { return {0.0f, 0}; }
    template <typename T>
    __aicore__ inline reduce_kernels::Partial Tile(const LocalTensor<T>& x, const reduce_kernels::Scratch& s, uint32_t n, uint32_t) const
    {
        LocalTensor<float> f = s.Plane(0);
        if constexpr (std::is_same_v<T, float>) {
            Muls(f, x, 0.0f, n);
        } else {
            Cast(f, x, RoundMode::CAST_NONE, n);
            Muls(f, f, 0.0f, n);
        }
        ReduceSum(s.red, f, s.red[64], n);
        reduce_kernels::VectorToScalar();
        const float v = s.red.GetValue(0);
        return {v == v ? 0.0f : 1.0f, 0};
    }
    __aicore__ inline reduce_kernels::Partial Combine(const reduce_kernels::Partial& a, const reduce_kernels::Partial& b) const
    {
        return {a.value > b.value ? a.value : b.value, 0};
    }
    __aicore__ inline void Store(const LocalTensor<float>& out, const reduce_kernels::Partial& p) const { out.SetValue(0, p.value); }
};

extern "C" __global__ __aicore__ void non_finite_check_op(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    reduce_kernels::Run<DTYPE_X>(NonFiniteOp{}, x, y, workspace, t);
}
