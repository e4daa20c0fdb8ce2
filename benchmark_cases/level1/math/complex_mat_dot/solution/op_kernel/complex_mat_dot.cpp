#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UNIT = 256;  // core split granularity in floats (keeps (re, im) pairs together)

// z = x * y on interleaved complex64 data (floats a, b = re, im of x; c, d of y):
//   z = x * [c, c] + [b, a] * [d, d] * [-1, +1]
// The duplicated / swapped operands come from Gather with byte-offset tables built once per core
// (16 entries by scalar writes, then doubling with vector Adds), so a tile costs 3 Gathers and 4
// vector arithmetic instructions.
class KernelComplexMatDot {
public:
    __aicore__ inline KernelComplexMatDot() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t unitsPerCore,
                                uint32_t bigCoreNum, uint32_t tileLength)
    {
        const uint32_t idx = GetBlockIdx();
        const uint64_t units = unitsPerCore + (idx < bigCoreNum ? 1 : 0);
        const uint64_t start = (uint64_t(idx) * unitsPerCore + (idx < bigCoreNum ? idx : bigCoreNum)) * UNIT;
        uint64_t end = start + units * UNIT;
        end = end < totalLength ? end : totalLength;
        length_ = end > start ? static_cast<uint32_t>(end - start) : 0;
        tile_ = tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + start, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + start, length_);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + start, length_);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(inY_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(outZ_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(calc_, tile_ * 7 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (length_ == 0) {
            return;
        }
        BuildTables();
        const uint32_t tiles = (length_ + tile_ - 1) / tile_;
        for (uint32_t t = 0; t < tiles; ++t) {
            const uint32_t n = (t == tiles - 1) ? length_ - t * tile_ : tile_;
            CopyIn(t, n);
            Compute(n);
            CopyOut(t, n);
        }
    }

private:
    __aicore__ inline LocalTensor<float> Plane(uint32_t i) { return calc_.Get<float>()[i * tile_]; }

    __aicore__ inline void BuildTables()
    {
        LocalTensor<int32_t> dupRe = Plane(3).ReinterpretCast<int32_t>();
        LocalTensor<int32_t> dupIm = Plane(4).ReinterpretCast<int32_t>();
        LocalTensor<int32_t> swap = Plane(5).ReinterpretCast<int32_t>();
        LocalTensor<float> sign = Plane(6);
        constexpr uint32_t SEED = 16;
        for (uint32_t i = 0; i < SEED; ++i) {
            dupRe.SetValue(i, static_cast<int32_t>((i & ~1U) * sizeof(float)));
            dupIm.SetValue(i, static_cast<int32_t>((i | 1U) * sizeof(float)));
            swap.SetValue(i, static_cast<int32_t>((i ^ 1U) * sizeof(float)));
            sign.SetValue(i, (i & 1U) ? 1.0f : -1.0f);
        }
        PipeBarrier<PIPE_ALL>();  // scalar writes land before the vector unit reads them
        for (uint32_t len = SEED; len < tile_; len *= 2) {
            const uint32_t count = len < tile_ - len ? len : tile_ - len;
            const int32_t shift = static_cast<int32_t>(len * sizeof(float));
            Adds(dupRe[len], dupRe, shift, count);
            Adds(dupIm[len], dupIm, shift, count);
            Adds(swap[len], swap, shift, count);
            Adds(sign[len], sign, 0.0f, count);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void CopyIn(uint32_t t, uint32_t n)
    {
        LocalTensor<float> x = inX_.AllocTensor<float>();
        LocalTensor<float> y = inY_.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(x, xGm_[uint64_t(t) * tile_], params, pad);
        DataCopyPad(y, yGm_[uint64_t(t) * tile_], params, pad);
        inX_.EnQue(x);
        inY_.EnQue(y);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> x = inX_.DeQue<float>();
        LocalTensor<float> y = inY_.DeQue<float>();
        LocalTensor<float> z = outZ_.AllocTensor<float>();
        LocalTensor<float> yRe = Plane(0);
        LocalTensor<float> yIm = Plane(1);
        LocalTensor<float> xSw = Plane(2);
        Gather(yRe, y, Plane(3).ReinterpretCast<uint32_t>(), 0, n);
        Gather(yIm, y, Plane(4).ReinterpretCast<uint32_t>(), 0, n);
        Gather(xSw, x, Plane(5).ReinterpretCast<uint32_t>(), 0, n);
        Mul(yIm, yIm, Plane(6), n);
        Mul(xSw, xSw, yIm, n);
        Mul(z, x, yRe, n);
        Add(z, z, xSw, n);
        outZ_.EnQue(z);
        inX_.FreeTensor(x);
        inY_.FreeTensor(y);
    }

    __aicore__ inline void CopyOut(uint32_t t, uint32_t n)
    {
        LocalTensor<float> z = outZ_.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(zGm_[uint64_t(t) * tile_], z, params);
        outZ_.FreeTensor(z);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inX_, inY_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outZ_;
    TBuf<QuePosition::VECCALC> calc_;
    GlobalTensor<float> xGm_, yGm_, zGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void complex_mat_dot(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelComplexMatDot op;
    op.Init(x, y, z, t.totalLength, t.unitsPerCore, t.bigCoreNum, t.tileLength);
    op.Process();
}
