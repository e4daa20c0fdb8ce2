#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i - alpha * x2_i
struct SubListOp : foreach::OpBase {
    static constexpr uint32_t IN = 2;
    float alpha;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Muls(in[1], in[1], alpha, n);
        Sub(out, in[0], in[1], n);
    }
};

extern "C" __global__ __aicore__ void foreach_sub_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR alpha, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x1, x2};
    SubListOp op{{}, foreach::ReadScalar(alpha)};
    foreach::Run<DTYPE_X1>(lists, y, FOREACH_SPLIT(t), op);
}
