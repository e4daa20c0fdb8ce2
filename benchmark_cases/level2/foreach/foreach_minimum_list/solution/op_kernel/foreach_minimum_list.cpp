#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = min(x1_i, x2_i)
struct MinimumListOp : foreach::OpBase {
    static constexpr uint32_t IN = 2;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Min(out, in[0], in[1], n);
    }
};

extern "C" __global__ __aicore__ void foreach_minimum_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x1, x2};
    MinimumListOp op{};
    foreach::Run<DTYPE_X1>(lists, y, FOREACH_SPLIT(t), op);
}
