#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t bigCoreNum, uint32_t blocksPerCore,
                                uint32_t tileLength, uint32_t totalLength)
    {
        const uint32_t elemsPerBlock = BLOCK_BYTES / sizeof(T);
        const uint32_t idx = GetBlockIdx();
        // Big cores (the first bigCoreNum) take one extra 32-byte block.
        uint32_t myBlocks = blocksPerCore + (idx < bigCoreNum ? 1 : 0);
        uint32_t startBlock = idx * blocksPerCore + (idx < bigCoreNum ? idx : bigCoreNum);
        uint64_t start = static_cast<uint64_t>(startBlock) * elemsPerBlock;
        uint64_t end = start + static_cast<uint64_t>(myBlocks) * elemsPerBlock;
        if (end > totalLength) {
            end = totalLength;
        }
        this->length = end > start ? static_cast<uint32_t>(end - start) : 0;
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, this->length);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, this->length);
        zGm.SetGlobalBuffer((__gm__ T*)z + start, this->length);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            pipe.InitBuffer(calcBuf, 2 * tileLength * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t tiles = (length + tileLength - 1) / tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t count = (i == tiles - 1) ? length - i * tileLength : tileLength;
            CopyIn(i, count);
            Compute(count);
            CopyOut(i, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t tile, uint32_t count)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[tile * tileLength], params, pad);
        DataCopyPad(yLocal, yGm[tile * tileLength], params, pad);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> a = calcBuf.Get<float>();
            LocalTensor<float> b = a[tileLength];
            Cast(a, xLocal, RoundMode::CAST_NONE, count);
            Cast(b, yLocal, RoundMode::CAST_NONE, count);
            Add(a, a, b, count);
            Cast(zLocal, a, RoundMode::CAST_RINT, count);
        } else {
            Add(zLocal, xLocal, yLocal, count);
        }
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t tile, uint32_t count)
    {
        LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(zGm[tile * tileLength], zLocal, params);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<QuePosition::VECCALC> calcBuf;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd<DTYPE_X> op;
    op.Init(x, y, z, tilingData.bigCoreNum, tilingData.blocksPerCore, tilingData.tileLength, tilingData.totalLength);
    op.Process();
}
