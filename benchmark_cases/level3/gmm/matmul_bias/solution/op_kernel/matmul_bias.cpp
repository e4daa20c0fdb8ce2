// MatmulBias on the cube unit: the bias row of every output tile goes GM -> L1 -> bias table and
// seeds the tile's accumulation (Mmad with a bias operand); the rest is the cube_kernels::CubeTile pipeline.
#include "kernel_operator.h"
#include "cube_pipeline.h"

struct MatmulTiling {
    uint32_t m, n, k, tileM, tileN, tilesM, tilesN, batch;
};

extern "C" __global__ __aicore__ void matmul_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
    AscendC::GlobalTensor<DTYPE_A> ga, gb, gbias;
    AscendC::GlobalTensor<DTYPE_C> gc;
    ga.SetGlobalBuffer((__gm__ DTYPE_A*)a, static_cast<uint64_t>(t.m) * t.k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B*)b, static_cast<uint64_t>(t.k) * t.n);
    gbias.SetGlobalBuffer((__gm__ DTYPE_BIAS*)bias, t.n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C*)c, static_cast<uint64_t>(t.m) * t.n);
    AscendC::TPipe pipe;
    cube_kernels::CubeTile<DTYPE_A> tile;
    tile.Init(&pipe);
    for (uint32_t i = AscendC::GetBlockIdx(); i < t.tilesM * t.tilesN; i += AscendC::GetBlockNum()) {
        const uint32_t m0 = (i / t.tilesN) * t.tileM, n0 = (i % t.tilesN) * t.tileN;
        const uint32_t m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
        const uint32_t n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
        tile.SetBias(gbias[n0], n);
        tile.Compute(ga[static_cast<uint64_t>(m0) * t.k], t.k, false, gb[n0], t.n, false, m, n, t.k);
        tile.Store(gc[static_cast<uint64_t>(m0) * t.n + n0], t.n);
    }
    tile.End();
}
