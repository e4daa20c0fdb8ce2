// OptimizedMatmul: the cube_kernels::CubeTile pipeline (K streamed through L1 in ping-pong chunks, L0 ping-pong,
// one Fixpipe per tile) with a swizzled tile order: tiles are visited in bands of SWIZZLE tile rows,
// column by column inside a band, so that the cores working at the same time read a few B columns
// and A rows and hit L2.
#include "kernel_operator.h"
#include "cube_pipeline.h"

struct MatmulTiling {
    uint32_t m, n, k, tileM, tileN, tilesM, tilesN, batch;
};

constexpr uint32_t SWIZZLE = 4;

__aicore__ inline void SwizzledTile(const MatmulTiling& t, uint32_t i, uint32_t& tm, uint32_t& tn)
{
    const uint32_t band = i / (SWIZZLE * t.tilesN);
    const uint32_t rowsInBand = t.tilesM - band * SWIZZLE < SWIZZLE ? t.tilesM - band * SWIZZLE : SWIZZLE;
    const uint32_t inBand = i - band * SWIZZLE * t.tilesN;
    tm = band * SWIZZLE + inBand % rowsInBand;
    tn = inBand / rowsInBand;
}

extern "C" __global__ __aicore__ void optimized_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
    AscendC::GlobalTensor<half> ga, gb, gc;
    ga.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.m) * t.k);
    gb.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.k) * t.n);
    gc.SetGlobalBuffer((__gm__ half*)c, static_cast<uint64_t>(t.m) * t.n);
    AscendC::TPipe pipe;
    cube_kernels::CubeTile<half> tile;
    tile.Init(&pipe);
    for (uint32_t i = AscendC::GetBlockIdx(); i < t.tilesM * t.tilesN; i += AscendC::GetBlockNum()) {
        uint32_t tm, tn;
        SwizzledTile(t, i, tm, tn);
        const uint32_t m0 = tm * t.tileM, n0 = tn * t.tileN;
        const uint32_t m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
        const uint32_t n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
        tile.Compute(ga[static_cast<uint64_t>(m0) * t.k], t.k, false, gb[n0], t.n, false, m, n, t.k);
        tile.Store(gc[static_cast<uint64_t>(m0) * t.n + n0], t.n);
    }
    tile.End();
}
