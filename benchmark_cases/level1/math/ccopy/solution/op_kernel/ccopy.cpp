#include "elementwise_kernel.h"
using namespace AscendC;

// Bit-exact copy of interleaved (re, im) float32 pairs: GM -> UB -> UB -> GM.
struct CopyOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& y, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        DataCopy(y, x[0], c.nAligned);
    }
};

extern "C" __global__ __aicore__ void ccopy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[1] = {x};
    elementwise_kernels::Run<float, float, 1>(CopyOp{}, in, y, t);
}
