#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.totalLength * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.totalLength);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.totalLength);
    LocalTensor<float> v = buf.Get<float>();
    DataCopy(v, xGm, t.totalLength);
    PipeBarrier<PIPE_ALL>();
    Relu(v, v, t.totalLength);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, v, t.totalLength);
}
