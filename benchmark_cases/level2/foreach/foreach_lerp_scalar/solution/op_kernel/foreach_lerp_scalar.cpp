#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i + weight * (x2_i - x1_i)
struct LerpScalarOp : foreach::OpBase {
    static constexpr uint32_t IN = 2;
    float weight;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Sub(in[1], in[1], in[0], n);
        Muls(in[1], in[1], weight, n);
        Add(out, in[0], in[1], n);
    }
};

extern "C" __global__ __aicore__ void foreach_lerp_scalar(GM_ADDR x1, GM_ADDR x2, GM_ADDR weight, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x1, x2};
    LerpScalarOp op{{}, foreach::ReadScalar(weight)};
    foreach::Run<DTYPE_X1>(lists, y, FOREACH_SPLIT(t), op);
}
