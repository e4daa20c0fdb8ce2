// PaddingMatmul as a mixed kernel. Phase 1 (vector cores): copy A and B into workspace matrices whose
// rows are padded with zeros to whole 32-byte blocks (DataCopyPad). SyncAll across all cores.
// Phase 2 (cube cores): the cube_kernels::CubeTile pipeline on the aligned copies.
#include "kernel_operator.h"
#include "cube_pipeline.h"

using namespace AscendC;

struct MatmulTiling {
    uint32_t m, n, k, tileM, tileN, tilesM, tilesN, batch;
};

constexpr uint32_t PAD_ROWS = 16;

// Rows [r0, r1) of src (rows of `cols` halves) -> dst (rows of align16(cols) halves, zero tail).
__aicore__ inline void PadRows(const GlobalTensor<half>& dst, const GlobalTensor<half>& src, uint32_t r0, uint32_t r1,
                               uint32_t cols, const LocalTensor<half>& buf)
{
    const uint32_t padded = cube_kernels::AlignUp(cols, 16);
    for (uint32_t r = r0; r < r1; r += PAD_ROWS) {
        const uint32_t rows = r1 - r < PAD_ROWS ? r1 - r : PAD_ROWS;
        DataCopyExtParams in(static_cast<uint16_t>(rows), cols * sizeof(half), 0, 0, 0);
        DataCopyPad(buf, src[static_cast<uint64_t>(r) * cols], in,
                    DataCopyPadExtParams<half>(true, 0, static_cast<uint8_t>(padded - cols), static_cast<half>(0)));
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
        DataCopy(dst[static_cast<uint64_t>(r) * padded], buf, rows * padded);
        SetFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(0);
    }
}

extern "C" __global__ __aicore__ void padding_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
    const uint32_t kPad = cube_kernels::AlignUp(t.k, 16), nPad = cube_kernels::AlignUp(t.n, 16);
    GlobalTensor<half> ga, gb, gc, wa, wb;
    ga.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.m) * t.k);
    gb.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.k) * t.n);
    gc.SetGlobalBuffer((__gm__ half*)c, static_cast<uint64_t>(t.m) * t.n);
    GM_ADDR user = GetUserWorkspace(workspace);
    wa.SetGlobalBuffer((__gm__ half*)user, static_cast<uint64_t>(t.m) * kPad);
    wb.SetGlobalBuffer((__gm__ half*)user + static_cast<uint64_t>(t.m) * kPad, static_cast<uint64_t>(t.k) * nPad);
    TPipe pipe;
    if ASCEND_IS_AIV {
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, PAD_ROWS * cube_kernels::AlignUp(t.k > t.n ? t.k : t.n, 16) * sizeof(half));
        LocalTensor<half> local = buf.Get<half>();
        const uint32_t workers = GetBlockNum() * GetSubBlockNum(), me = GetBlockIdx();
        const uint32_t aRows = cube_kernels::CeilDiv(t.m, workers), bRows = cube_kernels::CeilDiv(t.k, workers);
        const uint32_t a0 = me * aRows < t.m ? me * aRows : t.m, b0 = me * bRows < t.k ? me * bRows : t.k;
        PadRows(wa, ga, a0, a0 + aRows < t.m ? a0 + aRows : t.m, t.k, local);
        PadRows(wb, gb, b0, b0 + bRows < t.k ? b0 + bRows : t.k, t.n, local);
    }
    SyncAll<false>();   // every cube core needs every vector core's rows
    if ASCEND_IS_AIC {
        cube_kernels::CubeTile<half> tile;
        tile.Init(&pipe);
        for (uint32_t i = GetBlockIdx(); i < t.tilesM * t.tilesN; i += GetBlockNum()) {
            const uint32_t m0 = (i / t.tilesN) * t.tileM, n0 = (i % t.tilesN) * t.tileN;
            const uint32_t m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
            const uint32_t n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
            tile.Compute(wa[static_cast<uint64_t>(m0) * kPad], kPad, false, wb[n0], nPad, false, m, n, t.k);
            tile.Store(gc[static_cast<uint64_t>(m0) * t.n + n0], t.n);
        }
        tile.End();
    }
}
