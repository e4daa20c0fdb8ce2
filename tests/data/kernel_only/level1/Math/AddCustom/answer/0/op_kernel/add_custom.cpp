#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile)
    {
        this->total = total;
        this->tile = tile;
        xGm.SetGlobalBuffer((__gm__ T*)x, total);
        yGm.SetGlobalBuffer((__gm__ T*)y, total);
        zGm.SetGlobalBuffer((__gm__ T*)z, total);
        pipe.InitBuffer(xBuf, tile * sizeof(T));
        pipe.InitBuffer(yBuf, tile * sizeof(T));
        pipe.InitBuffer(zBuf, tile * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t start = 0; start < total; start += tile) {
            uint32_t count = total - start < tile ? total - start : tile;
            LocalTensor<T> xl = xBuf.Get<T>();
            LocalTensor<T> yl = yBuf.Get<T>();
            LocalTensor<T> zl = zBuf.Get<T>();
            DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(xl, xGm[start], params, pad);
            DataCopyPad(yl, yGm[start], params, pad);
            PipeBarrier<PIPE_ALL>();
            Add(zl, xl, yl, count);
            PipeBarrier<PIPE_ALL>();
            DataCopyPad(zGm[start], zl, params);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> xBuf, yBuf, zBuf;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t total = 0;
    uint32_t tile = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd<DTYPE_X> op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileLength);
    op.Process();
}
