// GroupedMatmulSliceK on the cube cores: every group's output is cut into 128 x 256 tiles, all groups'
// tiles form one sequence taken round-robin. A is stored transposed ([K, M]): the tile pipeline loads
// it as stored and transposes its fractals into L0A. An empty group's tiles are zeros.
#include "kernel_operator.h"
#include "cube_pipeline.h"

using namespace AscendC;

struct GroupedTiling {
    uint32_t m, n, k, groups;
};

extern "C" __global__ __aicore__ void grouped_matmul_slice_k(GM_ADDR a, GM_ADDR b, GM_ADDR groupList, GM_ADDR c,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA_WITH_STRUCT(GroupedTiling, t, tiling);
    GlobalTensor<DTYPE_A> ga, gb;
    GlobalTensor<DTYPE_C> gc;
    GlobalTensor<int64_t> ends;
    ga.SetGlobalBuffer((__gm__ DTYPE_A*)a, static_cast<uint64_t>(t.k) * t.m);
    gb.SetGlobalBuffer((__gm__ DTYPE_B*)b, static_cast<uint64_t>(t.k) * t.n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C*)c, static_cast<uint64_t>(t.groups) * t.m * t.n);
    ends.SetGlobalBuffer((__gm__ int64_t*)groupList, t.groups);
    TPipe pipe;
    cube_kernels::CubeTile<DTYPE_A> tile;
    tile.Init(&pipe);
    const uint32_t tilesM = cube_kernels::CeilDiv(t.m, cube_kernels::TILE_M), tilesN = cube_kernels::CeilDiv(t.n, cube_kernels::TILE_N);
    const uint32_t perGroup = tilesM * tilesN;
    for (uint32_t i = GetBlockIdx(); i < t.groups * perGroup; i += GetBlockNum()) {
        const uint32_t g = i / perGroup, tileIdx = i % perGroup;
        const uint32_t start = g == 0 ? 0 : static_cast<uint32_t>(ends.GetValue(g - 1));
        const uint32_t end = static_cast<uint32_t>(ends.GetValue(g));
        const uint32_t m0 = (tileIdx / tilesN) * cube_kernels::TILE_M, n0 = (tileIdx % tilesN) * cube_kernels::TILE_N;
        const uint32_t m = t.m - m0 < cube_kernels::TILE_M ? t.m - m0 : cube_kernels::TILE_M;
        const uint32_t n = t.n - n0 < cube_kernels::TILE_N ? t.n - n0 : cube_kernels::TILE_N;
        if (end > start) {
            tile.Compute(ga[static_cast<uint64_t>(start) * t.m + m0], t.m, true, gb[static_cast<uint64_t>(start) * t.n + n0],
                         t.n, false, m, n, end - start);
        } else {
            tile.ComputeZero(m, n);
        }
        tile.Store(gc[static_cast<uint64_t>(g) * t.m * t.n + static_cast<uint64_t>(m0) * t.n + n0], t.n);
    }
    tile.End();
}
