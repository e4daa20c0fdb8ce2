// FeedsRepeat: y = feeds rows repeated feeds_repeat_times[i] times each, then zero rows up to
// output_feeds_size.
//
// Output rows are split evenly over the cores (every output row costs one row write). Each core
// loads the repeat counts, walks their prefix sums on the scalar unit to find the feed rows that
// land in its output range, and for each of them:
//   MTE2: load one column tile of the feed row (DataCopyPad, any length);
//   V:    replicate it K times in UB at a 32-byte aligned stride (UB -> UB DataCopy);
//   MTE3: write the n repeats in groups of K rows with one DataCopyPad each (GM row stride rowLen).
// Zero padding rows leave from one zero tile, K rows per DataCopyPad. Both queues are double-buffered.
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class FeedsRepeatKernel {
public:
    __aicore__ inline FeedsRepeatKernel() {}

    __aicore__ inline void Init(GM_ADDR feeds, GM_ADDR times, GM_ADDR y, const FeedsRepeatTilingData& t)
    {
        F = t.feedRows;
        L = t.rowLen;
        colTile = t.colTile;
        repElems = t.repElems;
        const uint32_t idx = GetBlockIdx();
        const uint32_t big = t.bigCoreNum;
        rowBegin = uint64_t(idx) * t.rowsPerCore + (idx < big ? idx : big);
        rowEnd = rowBegin + t.rowsPerCore + (idx < big ? 1 : 0);
        feedsGm.SetGlobalBuffer((__gm__ T*)feeds, uint64_t(F) * L);
        timesGm.SetGlobalBuffer((__gm__ int32_t*)times, F);
        yGm.SetGlobalBuffer((__gm__ T*)y, uint64_t(t.outRows) * L);
        pipe.InitBuffer(timesBuf, (F + 8) / 8 * 32);
        pipe.InitBuffer(inQ, 2, colTile * sizeof(T));
        pipe.InitBuffer(repQ, 2, repElems * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (L == 0) {
            return;
        }
        LocalTensor<int32_t> times = timesBuf.Get<int32_t>();
        if (F > 0) {
            DataCopyPad(times, timesGm, DataCopyExtParams{1, static_cast<uint32_t>(F * sizeof(int32_t)), 0, 0, 0},
                        DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
            event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(ev);
            WaitFlag<HardEvent::MTE2_S>(ev);
        }
        uint64_t pos = 0;  // first output row of feed f
        for (uint32_t f = 0; f < F && pos < rowEnd; ++f) {
            const int32_t cnt = times.GetValue(f);
            const uint64_t end = pos + (cnt > 0 ? uint64_t(cnt) : 0);
            const uint64_t lo = pos > rowBegin ? pos : rowBegin;
            const uint64_t hi = end < rowEnd ? end : rowEnd;
            if (lo < hi) {
                RepeatRow(f, lo, static_cast<uint32_t>(hi - lo));
            }
            pos = end;
        }
        const uint64_t padFrom = pos > rowBegin ? pos : rowBegin;
        if (padFrom < rowEnd) {
            ZeroRows(padFrom, static_cast<uint32_t>(rowEnd - padFrom));
        }
    }

private:
    __aicore__ inline uint32_t Stride(uint32_t w) const
    {
        constexpr uint32_t epb = 32 / sizeof(T);
        return (w + epb - 1) / epb * epb;
    }

    // Writes feed row f to output rows [out, out + n), one column tile at a time.
    __aicore__ inline void RepeatRow(uint32_t f, uint64_t out, uint32_t n)
    {
        for (uint32_t c = 0; c < L; c += colTile) {
            const uint32_t w = (L - c) < colTile ? (L - c) : colTile;
            const uint32_t sw = Stride(w);
            uint32_t k = repElems / sw;
            k = k < n ? k : n;
            LocalTensor<T> row = inQ.AllocTensor<T>();
            DataCopyPad(row, feedsGm[uint64_t(f) * L + c], DataCopyExtParams{1, static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(row);
            row = inQ.DeQue<T>();
            LocalTensor<T> rep = repQ.AllocTensor<T>();
            for (uint32_t j = 0; j < k; ++j) {
                DataCopy(rep[j * sw], row, sw);
            }
            inQ.FreeTensor(row);
            repQ.EnQue(rep);
            rep = repQ.DeQue<T>();
            WriteRows(rep, out, n, k, c, w);
            repQ.FreeTensor(rep);
        }
    }

    // n output rows from `out`, columns [c, c + w), from k replicated rows in UB.
    __aicore__ inline void WriteRows(const LocalTensor<T>& rep, uint64_t out, uint32_t n, uint32_t k, uint32_t c, uint32_t w)
    {
        const uint32_t gap = static_cast<uint32_t>((L - w) * sizeof(T));  // GM bytes between row pieces
        for (uint32_t j = 0; j < n; j += k) {
            const uint32_t rows = (n - j) < k ? (n - j) : k;
            DataCopyPad(yGm[(out + j) * L + c], rep,
                        DataCopyExtParams{static_cast<uint16_t>(rows), static_cast<uint32_t>(w * sizeof(T)), 0, gap, 0});
        }
    }

    __aicore__ inline void ZeroRows(uint64_t out, uint32_t n)
    {
        const uint32_t w = L < repElems ? L : (colTile < repElems ? colTile : repElems);
        const uint32_t sw = Stride(w);
        uint32_t k = repElems / sw;
        k = k < n ? k : n;
        k = k < 4095 ? k : 4095;
        LocalTensor<T> zero = repQ.AllocTensor<T>();
        // Zero bits: duplicate an integer of the same width (bfloat16 has no Duplicate of its own).
        if constexpr (sizeof(T) == 2) {
            Duplicate(zero.template ReinterpretCast<int16_t>(), int16_t(0), k * sw);
        } else {
            Duplicate(zero.template ReinterpretCast<int32_t>(), int32_t(0), k * sw);
        }
        repQ.EnQue(zero);
        zero = repQ.DeQue<T>();
        for (uint32_t c = 0; c < L; c += w) {
            const uint32_t cw = (L - c) < w ? (L - c) : w;
            WriteRows(zero, out, n, k, c, cw);
        }
        repQ.FreeTensor(zero);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> repQ;
    TBuf<QuePosition::VECCALC> timesBuf;
    GlobalTensor<T> feedsGm, yGm;
    GlobalTensor<int32_t> timesGm;
    uint32_t F = 0, L = 0, colTile = 0, repElems = 0;
    uint64_t rowBegin = 0, rowEnd = 0;
};

extern "C" __global__ __aicore__ void feeds_repeat(GM_ADDR feeds, GM_ADDR feeds_repeat_times, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    FeedsRepeatKernel<DTYPE_FEEDS> op;
    op.Init(feeds, feeds_repeat_times, y, tilingData);
    op.Process();
}
