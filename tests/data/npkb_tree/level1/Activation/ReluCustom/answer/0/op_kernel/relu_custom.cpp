#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    // any length: DataCopyPad moves exactly n elements, the UB buffer is rounded up to 32 bytes
    uint32_t n = t.totalLength;
    pipe.InitBuffer(buf, (n * sizeof(float) + 31) / 32 * 32);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    LocalTensor<float> v = buf.Get<float>();
    DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    DataCopyPadExtParams<float> pad{false, 0, 0, 0};
    DataCopyPad(v, xGm, params, pad);
    PipeBarrier<PIPE_ALL>();
    Relu(v, v, n);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(yGm, v, params);
}
