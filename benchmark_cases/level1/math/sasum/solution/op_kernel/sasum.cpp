#include "reduce_kernel.h"
using namespace AscendC;

// Partial sums of |x| per tile (vector ReduceSum), accumulated in float32 per core, then across cores.
struct SasumOp {
    static constexpr uint32_t PLANES = 0;
    __aicore__ inline void Setup(const reduce_kernels::Scratch&) const {}
    __aicore__ inline reduce_kernels::Partial Identity() const { return {0.0f, 0}; }
    __aicore__ inline reduce_kernels::Partial Tile(const LocalTensor<float>& x, const reduce_kernels::Scratch& s, uint32_t n,
                                        uint32_t) const
    {
        Abs(x, x, n);
        ReduceSum(s.red, x, s.red[64], n);
        reduce_kernels::VectorToScalar();
        return {s.red.GetValue(0), 0};
    }
    __aicore__ inline reduce_kernels::Partial Combine(const reduce_kernels::Partial& a, const reduce_kernels::Partial& b) const
    {
        return {a.value + b.value, 0};
    }
    __aicore__ inline void Store(const LocalTensor<float>& out, const reduce_kernels::Partial& p) const { out.SetValue(0, p.value); }
};

extern "C" __global__ __aicore__ void sasum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    reduce_kernels::Run<float>(SasumOp{}, x, y, workspace, t);
}
