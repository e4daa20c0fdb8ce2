#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[o, k, i] = x[o, index[o, k, i], i]. For every slab o touched by this core, x[o] (D * inner
// elements) is loaded into UB once; index chunks (whole rows of `inner` when they fit) become byte
// offsets idx * inner * size + (j mod inner) * size (the periodic ramp is built once per core), and
// one vector Gather per chunk picks the values from the slab. Values move as raw 16/32-bit patterns.
template <typename T, typename I>
class KernelGatherV3 {
    using B = std::conditional_t<sizeof(T) == 2, half, float>;  // Gather works on bit patterns

public:
    __aicore__ inline KernelGatherV3() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR y, uint32_t gatherDim, uint32_t indexDim,
                                uint32_t inner, uint32_t rowsPerCore, uint32_t bigCoreNum, uint32_t chunk,
                                uint32_t slabCapacity)
    {
        const uint32_t idx = GetBlockIdx();
        rowStart_ = idx * rowsPerCore + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = rowsPerCore + (idx < bigCoreNum ? 1 : 0);
        d_ = gatherDim;
        k_ = indexDim;
        inner_ = inner;
        chunk_ = chunk;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ B*>(x));
        idxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ I*>(index));
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ B*>(y));
        pipe_.InitBuffer(slabQ_, 1, slabCapacity * sizeof(B));
        pipe_.InitBuffer(idxQ_, BUFFER_NUM, chunk_ * sizeof(I));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, chunk_ * sizeof(B));
        rampAt_ = (chunk_ + 7) / 8 * 8;  // 32-byte aligned start of the ramp
        pipe_.InitBuffer(offBuf_, rampAt_ * sizeof(int32_t) * 2);
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0) {
            return;
        }
        BuildRamp();
        const uint32_t rowsPerChunk = chunk_ >= inner_ ? chunk_ / inner_ : 0;
        uint32_t row = rowStart_;
        const uint32_t rowEnd = rowStart_ + rowCount_;
        uint32_t loadedSlab = UINT32_MAX;
        LocalTensor<B> slab;
        while (row < rowEnd) {
            const uint32_t o = row / k_;
            if (o != loadedSlab) {
                if (loadedSlab != UINT32_MAX) {
                    slabQ_.FreeTensor(slab);
                }
                slab = LoadSlab(o);
                loadedSlab = o;
            }
            if (rowsPerChunk > 0) {
                // Whole rows: as many as fit the chunk, without leaving slab o.
                uint32_t n = rowsPerChunk;
                const uint32_t slabRowsLeft = (o + 1) * k_ - row;
                n = n < slabRowsLeft ? n : slabRowsLeft;
                n = n < rowEnd - row ? n : rowEnd - row;
                Step(slab, uint64_t(row) * inner_, n * inner_, 0);
                row += n;
            } else {
                // Long rows: pieces of one row.
                for (uint32_t i = 0; i < inner_; i += chunk_) {
                    const uint32_t len = inner_ - i < chunk_ ? inner_ - i : chunk_;
                    Step(slab, uint64_t(row) * inner_ + i, len, i);
                }
                row += 1;
            }
        }
        slabQ_.FreeTensor(slab);
    }

private:
    __aicore__ inline LocalTensor<B> LoadSlab(uint32_t o)
    {
        LocalTensor<B> slab = slabQ_.AllocTensor<B>();
        const uint32_t n = d_ * inner_;
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(B)), 0, 0, 0};
        DataCopyPadExtParams<B> pad{false, 0, 0, 0};
        DataCopyPad(slab, xGm_[uint64_t(o) * n], params, pad);
        slabQ_.EnQue(slab);
        return slabQ_.DeQue<B>();
    }

    // ramp[j] = (j mod inner) * size when whole rows fit a chunk, else j * size.
    __aicore__ inline void BuildRamp()
    {
        LocalTensor<int32_t> ramp = offBuf_.Get<int32_t>()[rampAt_];
        const uint32_t period = inner_ <= chunk_ ? inner_ : chunk_;
        for (uint32_t j = 0; j < chunk_; ++j) {
            ramp.SetValue(j, static_cast<int32_t>((j % period) * sizeof(B)));
        }
        PipeBarrier<PIPE_ALL>();
    }

    // n index elements starting at flat position `first`; `col` is the column of the first one.
    __aicore__ inline void Step(const LocalTensor<B>& slab, uint64_t first, uint32_t n, uint32_t col)
    {
        LocalTensor<I> idx = idxQ_.AllocTensor<I>();
        DataCopyExtParams inParams{1, static_cast<uint32_t>(n * sizeof(I)), 0, 0, 0};
        DataCopyPadExtParams<I> pad{false, 0, 0, 0};
        DataCopyPad(idx, idxGm_[first], inParams, pad);
        idxQ_.EnQue(idx);
        idx = idxQ_.DeQue<I>();

        LocalTensor<int32_t> off = offBuf_.Get<int32_t>();
        LocalTensor<int32_t> ramp = off[rampAt_];
        if constexpr (std::is_same_v<I, int64_t>) {
            Cast(off, idx, RoundMode::CAST_NONE, n);
            Muls(off, off, static_cast<int32_t>(inner_ * sizeof(B)), n);
        } else {
            Muls(off, idx, static_cast<int32_t>(inner_ * sizeof(B)), n);
        }
        Add(off, off, ramp, n);
        if (col != 0) {
            Adds(off, off, static_cast<int32_t>(col * sizeof(B)), n);
        }
        idxQ_.FreeTensor(idx);

        LocalTensor<B> out = outQ_.AllocTensor<B>();
        Gather(out, slab, off.ReinterpretCast<uint32_t>(), 0, n);
        outQ_.EnQue(out);
        out = outQ_.DeQue<B>();
        DataCopyExtParams outParams{1, static_cast<uint32_t>(n * sizeof(B)), 0, 0, 0};
        DataCopyPad(yGm_[first], out, outParams);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> slabQ_;
    TQue<QuePosition::VECIN, BUFFER_NUM> idxQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> offBuf_;
    GlobalTensor<B> xGm_, yGm_;
    GlobalTensor<I> idxGm_;
    uint32_t rowStart_ = 0;
    uint32_t rowCount_ = 0;
    uint32_t d_ = 0;
    uint32_t k_ = 0;
    uint32_t inner_ = 0;
    uint32_t chunk_ = 0;
    uint32_t rampAt_ = 0;
};

extern "C" __global__ __aicore__ void gather_v3(GM_ADDR x, GM_ADDR index, GM_ADDR y, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelGatherV3<DTYPE_X, DTYPE_INDEX> op;
    op.Init(x, index, y, t.gatherDim, t.indexDim, t.inner, t.rowsPerCore, t.bigCoreNum, t.chunk, t.slabCapacity);
    op.Process();
}
