#include "kernel_operator.h"
#include "row_gather_kernel.h"
using namespace AscendC;

// Output row (b, s) of `width` elements comes from input row (b, s') with s' = len[b] - 1 - s when
// s < len[b], else s. seq_lengths is read on the scalar unit (one GM read per row).
struct ReverseSource {
    GlobalTensor<int32_t> lengths;
    uint32_t batch = 1, seq = 1, width = 1;
    bool batchMajor = true;
    __aicore__ inline uint64_t operator()(uint64_t row) const
    {
        const uint64_t b = batchMajor ? row / seq : row % batch;
        const uint64_t s = batchMajor ? row % seq : row / batch;
        int64_t len = lengths.GetValue(b);
        len = len < 0 ? 0 : (len > int64_t(seq) ? int64_t(seq) : len);
        const uint64_t src = s < uint64_t(len) ? uint64_t(len) - 1 - s : s;
        return (batchMajor ? b * seq + src : src * batch + b) * width;
    }
};

extern "C" __global__ __aicore__ void reverse_sequence(GM_ADDR x, GM_ADDR seq_lengths, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ReverseSource source;
    source.lengths.SetGlobalBuffer((__gm__ int32_t*)seq_lengths, t.batch);
    source.batch = t.batch;
    source.seq = t.seq;
    source.width = t.width;
    source.batchMajor = t.batchMajor != 0;
    row_gather_kernels::GatherTiling g{t.width, false, t.bigCoreNum, t.rowsPerCore, t.rowsPerTile, t.colTile};
    row_gather_kernels::RowGather<DTYPE_X, ReverseSource> op;
    op.Init(x, y, source, g);
    op.Process();
}
