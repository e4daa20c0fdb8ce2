#include "l1_elementwise.h"
using namespace AscendC;

// Compare (bit mask over whole 256-byte repeats) -> 0/1 bytes.
struct LessEqualOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<uint8_t>& y, const LocalTensor<T>* x, const l1::Ctx& c) const
    {
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> a = c.Plane<float>(0);
            LocalTensor<float> b = c.Plane<float>(1);
            Cast(a, x[0], RoundMode::CAST_NONE, c.nAligned);
            Cast(b, x[1], RoundMode::CAST_NONE, c.nAligned);
            LocalTensor<uint8_t> mask = c.Plane<uint8_t>(2);
            Compare(mask, a, b, CMPMODE::LE, c.nAligned);
            l1::MaskToBool(y, mask, c, 3);
        } else {
            LocalTensor<uint8_t> mask = c.Plane<uint8_t>(0);
            Compare(mask, x[0], x[1], CMPMODE::LE, c.nAligned);
            l1::MaskToBool(y, mask, c, 1);
        }
    }
};

extern "C" __global__ __aicore__ void less_equal(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[2] = {x1, x2};
    l1::Run<DTYPE_X1, uint8_t, 2>(LessEqualOp{}, in, y, t);
}
