// row_gather_kernel.h -- kernel base shared by the level-2 TensorMove solutions that build every output
// row from one source row (ExpandV2, ReverseSequence, FeedsRepeat): a pure data-movement kernel.
//
// Output rows are split over the cores, big cores taking one extra row. A tile holds up to
// rowsPerTile output rows, each 32-byte aligned in UB:
//   copy rows:       each row is one DataCopyPad of its source row (GM -> UB) and the tile leaves
//                    with one DataCopyPad (MTE2 -> MTE3 through a bound VECIN/VECOUT queue);
//   broadcast rows:  each row is one value: Duplicate fills it (vector), then the tile leaves.
// Rows wider than one UB tile go column chunk by column chunk. `Source` maps an output row to the
// element offset of its source row in x.
#ifndef ROW_GATHER_KERNEL_H
#define ROW_GATHER_KERNEL_H

#include "kernel_operator.h"

namespace row_gather_kernels {
using namespace AscendC;

struct GatherTiling {
    uint32_t width;        // elements per output row
    bool lastBroadcast;    // every row is one repeated value
    uint32_t bigCoreNum;
    uint32_t rowsPerCore;
    uint32_t rowsPerTile;
    uint32_t colTile;
};

constexpr int32_t kGatherBuf = 2;

template <typename T, class Source>
class RowGather {
    // Duplicate works on the bit pattern: 2-byte and 4-byte integers of the same width.
    using U = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

public:
    __aicore__ inline RowGather() {}
    // rows output rows of `width` elements; source(row) is the element offset in x of the row's first
    // element; lastBroadcast: every row is the single value x[source(row)] repeated.
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Source& source, const GatherTiling& t)
    {
        src = source;
        W = t.width;
        lastBroadcast = t.lastBroadcast;
        R = t.rowsPerTile;
        C = t.colTile;
        const uint32_t idx = GetBlockIdx();
        myRows = t.rowsPerCore + (idx < t.bigCoreNum ? 1 : 0);
        startRow = uint64_t(idx) * t.rowsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        xGm.SetGlobalBuffer((__gm__ T*)x);
        xBits.SetGlobalBuffer((__gm__ U*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y + startRow * W, uint64_t(myRows) * W);
        const uint32_t bytes = R * (((W < C ? W : C) * sizeof(T) + 31) / 32 * 32);
        if (lastBroadcast) {
            pipe.InitBuffer(fillQ, kGatherBuf, bytes);
        } else {
            pipe.InitBuffer(copyQ, kGatherBuf, bytes);
        }
    }

    __aicore__ inline void Process()
    {
        if (W <= C) {
            const uint32_t stride = (W * sizeof(T) + 31) / 32 * 32 / sizeof(T);
            for (uint32_t row = 0; row < myRows; row += R) {
                const uint32_t rr = (myRows - row) < R ? (myRows - row) : R;
                LocalTensor<T> buf = lastBroadcast ? fillQ.AllocTensor<T>() : copyQ.AllocTensor<T>();
                for (uint32_t i = 0; i < rr; ++i) {
                    Fill(buf[i * stride], src(startRow + row + i), W);
                }
                WriteOut(buf, uint64_t(row) * W, rr, W);
            }
            return;
        }
        for (uint32_t row = 0; row < myRows; ++row) {
            const uint64_t first = src(startRow + row);
            for (uint32_t col = 0; col < W; col += C) {
                const uint32_t cw = (W - col) < C ? (W - col) : C;
                LocalTensor<T> buf = lastBroadcast ? fillQ.AllocTensor<T>() : copyQ.AllocTensor<T>();
                Fill(buf, lastBroadcast ? first : first + col, cw);
                WriteOut(buf, uint64_t(row) * W + col, 1, cw);
            }
        }
    }

private:
    __aicore__ inline void Fill(const LocalTensor<T>& dst, uint64_t src, uint32_t count)
    {
        if (lastBroadcast) {
            const U value = xBits.GetValue(src);
            Duplicate(dst.template ReinterpretCast<U>(), value, count);
        } else {
            DataCopyPad(dst, xGm[src], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
        }
    }

    __aicore__ inline void WriteOut(LocalTensor<T>& buf, uint64_t offset, uint32_t rows, uint32_t cols)
    {
        DataCopyExtParams p{static_cast<uint16_t>(rows), static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0};
        if (lastBroadcast) {
            fillQ.EnQue(buf);
            buf = fillQ.DeQue<T>();
            DataCopyPad(yGm[offset], buf, p);
            fillQ.FreeTensor(buf);
        } else {
            copyQ.EnQue(buf);
            buf = copyQ.DeQue<T>();
            DataCopyPad(yGm[offset], buf, p);
            copyQ.FreeTensor(buf);
        }
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, kGatherBuf> copyQ;
    TQue<QuePosition::VECOUT, kGatherBuf> fillQ;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<U> xBits;
    Source src;
    uint32_t W = 0, R = 1, C = 0, myRows = 0;
    uint64_t startRow = 0;
    bool lastBroadcast = false;
};

}  // namespace row_gather_kernels

#endif  // ROW_GATHER_KERNEL_H
