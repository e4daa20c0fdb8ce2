#include "l1_reduce.h"
using namespace AscendC;

// Per tile of m complex values (2m floats): Abs on all floats, then |re| and |im| planes by two Gathers
// (byte-offset tables of the even and odd floats, built once per core) and one Add; then the index of
// the first extreme. Strict comparisons across tiles and cores keep the smallest index on ties.
struct IcaminOp {
    static constexpr uint32_t PLANES = 3;
    __aicore__ inline void Setup(const l1r::Scratch& s) const
    {
        // even[k] = 8k bytes, odd[k] = 8k + 4 bytes: 8 by scalar writes, then doubling.
        LocalTensor<int32_t> even = s.Plane(1).ReinterpretCast<int32_t>();
        LocalTensor<int32_t> odd = s.Plane(2).ReinterpretCast<int32_t>();
        for (int32_t k = 0; k < 8; ++k) {
            even.SetValue(k, 8 * k);
            odd.SetValue(k, 8 * k + 4);
        }
        PipeBarrier<PIPE_ALL>();
        const uint32_t half = s.tile / 2;
        for (uint32_t len = 8; len < half; len *= 2) {
            const uint32_t count = len < half - len ? len : half - len;
            Adds(even[len], even, static_cast<int32_t>(8 * len), count);
            Adds(odd[len], odd, static_cast<int32_t>(8 * len), count);
            PipeBarrier<PIPE_V>();
        }
    }
    __aicore__ inline l1r::Partial Identity() const { return {0.0f, 0}; }
    __aicore__ inline l1r::Partial Tile(const LocalTensor<float>& x, const l1r::Scratch& s, uint32_t n,
                                        uint32_t first) const
    {
        const uint32_t m = n / 2;
        Abs(x, x, n);
        LocalTensor<float> mag = s.Plane(0);
        LocalTensor<float> im = s.Plane(0)[s.tile / 2];
        Gather(mag, x, s.Plane(1).ReinterpretCast<uint32_t>(), 0, m);
        Gather(im, x, s.Plane(2).ReinterpretCast<uint32_t>(), 0, m);
        Add(mag, mag, im, m);
        return l1r::ArgExtreme<false>(mag, s, m, first / 2);
    }
    __aicore__ inline l1r::Partial Combine(const l1r::Partial& a, const l1r::Partial& b) const
    {
        return l1r::ArgCombine<false>(a, b);
    }
    __aicore__ inline void Store(const LocalTensor<float>& out, const l1r::Partial& p) const { l1r::StoreIndex(out, p); }
};

extern "C" __global__ __aicore__ void icamin(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    l1r::Run<float>(IcaminOp{}, x, y, workspace, t);
}
