#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;

// y[r, 0:h] = -x[r, h:2h], y[r, h:2h] = x[r, 0:h].
// A step moves `count` rows x `len` columns of both halves: one strided DataCopyPad per half brings
// the rows into UB (each row padded to 32 bytes), the second half is negated and the first half copied
// into the output regions, and one strided DataCopyPad per half writes them to their swapped places.
template <typename T>
class KernelRotateHalf {
public:
    __aicore__ inline KernelRotateHalf() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t half, uint32_t chunkLen,
                                uint32_t chunks, uint32_t rowsPerStep, uint32_t tileElems, uint32_t itemsPerCore,
                                uint32_t bigCoreNum)
    {
        const uint32_t idx = GetBlockIdx();
        itemStart_ = idx * itemsPerCore + (idx < bigCoreNum ? idx : bigCoreNum);
        itemCount_ = itemsPerCore + (idx < bigCoreNum ? 1 : 0);
        rows_ = rows;
        half_ = half;
        chunkLen_ = chunkLen;
        chunks_ = chunks;
        rowsPerStep_ = rowsPerStep;
        tile_ = tileElems;
        const uint64_t total = uint64_t(rows) * half * 2;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), total);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), total);
        pipe_.InitBuffer(inQ_, BUFFER_NUM, 2 * tile_ * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, 2 * tile_ * sizeof(T));
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            pipe_.InitBuffer(calc_, tile_ * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (chunks_ == 1) {
            // Items are rows: batch rowsPerStep of them per step.
            for (uint32_t done = 0; done < itemCount_; done += rowsPerStep_) {
                const uint32_t count = itemCount_ - done < rowsPerStep_ ? itemCount_ - done : rowsPerStep_;
                Step(itemStart_ + done, 0, count, half_);
            }
        } else {
            for (uint32_t i = 0; i < itemCount_; ++i) {
                const uint32_t item = itemStart_ + i;
                const uint32_t col = (item % chunks_) * chunkLen_;
                const uint32_t len = half_ - col < chunkLen_ ? half_ - col : chunkLen_;
                Step(item / chunks_, col, 1, len);
            }
        }
    }

private:
    __aicore__ inline void Step(uint32_t row, uint32_t col, uint32_t count, uint32_t len)
    {
        const uint64_t width = uint64_t(half_) * 2;
        const uint64_t base = uint64_t(row) * width + col;
        const uint32_t gap = static_cast<uint32_t>((width - len) * sizeof(T));  // GM bytes between rows
        const uint32_t pitch = (len * sizeof(T) + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES / sizeof(T);
        DataCopyExtParams rowsParams{static_cast<uint16_t>(count), static_cast<uint32_t>(len * sizeof(T)), gap, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};

        LocalTensor<T> in = inQ_.AllocTensor<T>();
        DataCopyPad(in, xGm_[base + half_], rowsParams, pad);  // second halves -> in[0, tile)
        DataCopyPad(in[tile_], xGm_[base], rowsParams, pad);   // first halves -> in[tile, 2 tile)
        inQ_.EnQue(in);

        in = inQ_.DeQue<T>();
        LocalTensor<T> out = outQ_.AllocTensor<T>();
        const uint32_t n = count * pitch;
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> f = calc_.Get<float>();
            Cast(f, in, RoundMode::CAST_NONE, n);
            Muls(f, f, -1.0f, n);
            Cast(out, f, RoundMode::CAST_RINT, n);
        } else {
            Muls(out, in, static_cast<T>(-1), n);
        }
        DataCopy(out[tile_], in[tile_], n);
        outQ_.EnQue(out);
        inQ_.FreeTensor(in);

        out = outQ_.DeQue<T>();
        DataCopyExtParams outParams{static_cast<uint16_t>(count), static_cast<uint32_t>(len * sizeof(T)), 0, gap, 0};
        DataCopyPad(yGm_[base], out, outParams);
        DataCopyPad(yGm_[base + half_], out[tile_], outParams);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> calc_;
    GlobalTensor<T> xGm_, yGm_;
    uint32_t itemStart_ = 0;
    uint32_t itemCount_ = 0;
    uint32_t rows_ = 0;
    uint32_t half_ = 0;
    uint32_t chunkLen_ = 0;
    uint32_t chunks_ = 1;
    uint32_t rowsPerStep_ = 1;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void strideslice_neg_concat_v2(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                                GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelRotateHalf<DTYPE_X> op;
    op.Init(x, y, t.rows, t.half, t.chunkLen, t.chunks, t.rowsPerStep, t.tileElems, t.itemsPerCore, t.bigCoreNum);
    op.Process();
}
