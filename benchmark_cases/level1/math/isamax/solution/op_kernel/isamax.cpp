#include "l1_reduce.h"
using namespace AscendC;

// Per tile: |x| then ReduceMax/ReduceMin with the index of the first extreme; strict comparisons
// across tiles and cores (in index order) keep the smallest index on ties.
struct IsamaxOp {
    static constexpr uint32_t PLANES = 0;
    __aicore__ inline void Setup(const l1r::Scratch&) const {}
    __aicore__ inline l1r::Partial Identity() const { return {0.0f, 0}; }
    __aicore__ inline l1r::Partial Tile(const LocalTensor<float>& x, const l1r::Scratch& s, uint32_t n,
                                        uint32_t first) const
    {
        Abs(x, x, n);
        return l1r::ArgExtreme<true>(x, s, n, first);
    }
    __aicore__ inline l1r::Partial Combine(const l1r::Partial& a, const l1r::Partial& b) const
    {
        return l1r::ArgCombine<true>(a, b);
    }
    __aicore__ inline void Store(const LocalTensor<float>& out, const l1r::Partial& p) const { l1r::StoreIndex(out, p); }
};

extern "C" __global__ __aicore__ void isamax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    l1r::Run<float>(IsamaxOp{}, x, y, workspace, t);
}
