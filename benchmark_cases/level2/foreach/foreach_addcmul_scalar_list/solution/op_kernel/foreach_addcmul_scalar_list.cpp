#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// y_i = x1_i + scalars[i] * x2_i * x3_i
struct AddcmulScalarListOp : foreach::OpBase {
    static constexpr uint32_t IN = 3;
    GM_ADDR scalars;
    float s = 0.0f;
    __aicore__ inline void SetTensor(uint32_t t) { s = foreach::ReadScalar(scalars, t); }
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Mul(in[1], in[1], in[2], n);
        Muls(in[1], in[1], s, n);
        Add(out, in[0], in[1], n);
    }
};

extern "C" __global__ __aicore__ void foreach_addcmul_scalar_list(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR scalars, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {x1, x2, x3};
    AddcmulScalarListOp op{{}, scalars};
    foreach::Run<DTYPE_X1>(lists, y, FOREACH_SPLIT(t), op);
}
