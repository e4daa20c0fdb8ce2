// StridedSliceAssignV2: input_value (contiguous) -> the strided slice of var, in place (var_out is
// var's buffer). The host turns the slice into rows of rowLen contiguous elements; consecutive rows
// along the last index dim are one DataCopyPad each way (blockCount rows; GM gap = step - rowLen on
// the var side), rows longer than a UB tile travel in chunks. Work items (rows, or row chunks) are
// split over the cores, big cores taking one more; the queue is double-buffered so the read of the
// next tile overlaps the write of this one.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
template <typename T>
class StridedSliceAssign {
public:
    __aicore__ inline StridedSliceAssign() {}

    __aicore__ inline void Init(GM_ADDR value, GM_ADDR varOut, const StridedSliceAssignV2TilingData& t)
    {
        m = t.indexDims;
        for (uint32_t i = 0; i < m; ++i) {
            counts[i] = t.counts[i];
            steps[i] = t.varStep[i];
        }
        base = t.varBase;
        rowLen = t.rowLen;
        cpr = t.chunksPerRow;
        chunkLen = t.chunkLen;
        rowsPerTile = t.rowsPerTile;
        const uint64_t idx = GetBlockIdx();
        const uint64_t big = t.bigCoreNum;
        itemBegin = idx * t.itemsPerCore + (idx < big ? idx : big);
        itemEnd = itemBegin + t.itemsPerCore + (idx < big ? 1 : 0);
        valueGm.SetGlobalBuffer((__gm__ T*)value);
        varGm.SetGlobalBuffer((__gm__ T*)varOut);
        pipe.InitBuffer(que, 2, t.tileBytes);
    }

    __aicore__ inline void Process()
    {
        if (cpr > 1) {
            for (uint64_t item = itemBegin; item < itemEnd; ++item) {
                const uint64_t row = item / cpr;
                const uint64_t off = uint64_t(item % cpr) * chunkLen;
                const uint64_t len = (rowLen - off) < chunkLen ? (rowLen - off) : chunkLen;
                Move(row * rowLen + off, VarOffset(row) + off, 1, len, 0);
            }
            return;
        }
        const uint64_t last = counts[m - 1];
        const uint64_t gap = (steps[m - 1] - rowLen) * sizeof(T);
        for (uint64_t row = itemBegin; row < itemEnd;) {
            // Rows up to the end of this run of the last index dim, the tile and this core's range.
            uint64_t n = last - row % last;
            n = n < rowsPerTile ? n : rowsPerTile;
            n = n < (itemEnd - row) ? n : (itemEnd - row);
            Move(row * rowLen, VarOffset(row), static_cast<uint16_t>(n), rowLen, static_cast<uint32_t>(gap));
            row += n;
        }
    }

private:
    __aicore__ inline uint64_t VarOffset(uint64_t row) const
    {
        uint64_t off = base;
        for (uint32_t d = m; d-- > 0;) {
            off += (row % counts[d]) * steps[d];
            row /= counts[d];
        }
        return off;
    }

    // n rows of len elements: input_value[src ...] (back to back) -> var[dst ...] (rows gap bytes apart).
    __aicore__ inline void Move(uint64_t src, uint64_t dst, uint16_t n, uint64_t len, uint32_t gap)
    {
        const uint32_t bytes = static_cast<uint32_t>(len * sizeof(T));
        LocalTensor<T> l = que.template AllocTensor<T>();
        DataCopyPad(l, valueGm[src], DataCopyExtParams{n, bytes, 0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});
        que.EnQue(l);
        l = que.template DeQue<T>();
        DataCopyPad(varGm[dst], l, DataCopyExtParams{n, bytes, 0, gap, 0});
        que.FreeTensor(l);
    }

    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 2> que;
    GlobalTensor<T> valueGm, varGm;
    uint32_t m = 1, cpr = 1, chunkLen = 0, rowsPerTile = 1;
    uint32_t counts[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    uint64_t steps[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint64_t base = 0, rowLen = 0, itemBegin = 0, itemEnd = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void strided_slice_assign_v2(GM_ADDR var, GM_ADDR input_value, GM_ADDR begin,
                                                              GM_ADDR end, GM_ADDR strides, GM_ADDR var_out,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    StridedSliceAssign<DTYPE_VAR> op;
    op.Init(input_value, var_out, tilingData);
    op.Process();
}
