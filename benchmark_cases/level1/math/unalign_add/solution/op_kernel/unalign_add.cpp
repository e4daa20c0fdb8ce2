#include "elementwise_kernel.h"
using namespace AscendC;

// x + y; tails of any byte length are moved by DataCopyPad in the base.
struct AddOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<T>& z, const LocalTensor<T>* x, const elementwise_kernels::Ctx& c) const
    {
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> a = elementwise_kernels::ToFloat(x[0], c, 0);
            LocalTensor<float> b = elementwise_kernels::ToFloat(x[1], c, 1);
            Add(a, a, b, c.n);
            elementwise_kernels::StoreFloat(z, a, c);
        } else {
            Add(z, x[0], x[1], c.n);
        }
    }
};

extern "C" __global__ __aicore__ void unalign_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR in[2] = {x, y};
    elementwise_kernels::Run<DTYPE_X, DTYPE_Z, 2>(AddOp{}, in, z, t);
}
