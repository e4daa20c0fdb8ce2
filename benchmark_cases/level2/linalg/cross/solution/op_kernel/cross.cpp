#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// y = x1 x x2 on the three planes of the dim of size 3:
// y0 = a1 b2 - a2 b1, y1 = a2 b0 - a0 b2, y2 = a0 b1 - a1 b0.
struct CrossOp {
    static constexpr uint32_t IN = 2, OUT = 1, IN_SPLIT = 3, OUT_SPLIT = 1, TMP = 1, SPLIT_K = 3;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        const LocalTensor<float>* a = in;
        const LocalTensor<float>* b = in + 3;
        for (uint32_t k = 0; k < 3; ++k) {
            const uint32_t i = (k + 1) % 3;
            const uint32_t j = (k + 2) % 3;
            Mul(out[k], a[i], b[j], n);
            Mul(tmp[0], a[j], b[i], n);
            Sub(out[k], out[k], tmp[0], n);
        }
    }
};

extern "C" __global__ __aicore__ void cross(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    GM_ADDR inArgs[] = {x1, x2};
    GM_ADDR outArgs[] = {y};
    CrossOp op{};
    activation_kernels::RunElementwise<DTYPE_X1, CrossOp>(inArgs, outArgs, shape, op);
}
