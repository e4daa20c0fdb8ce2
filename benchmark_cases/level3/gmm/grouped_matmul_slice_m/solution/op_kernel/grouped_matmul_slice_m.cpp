// GroupedMatmulSliceM on the cube cores: the tiles of all groups form one sequence (group by group,
// 128 x 256 tiles of each group's rows); core i takes tiles i, i + cores, ... The group ends come from
// GM at run time.
#include "kernel_operator.h"
#include "cube_pipeline.h"

using namespace AscendC;

struct GroupedTiling {
    uint32_t m, n, k, groups;
};

extern "C" __global__ __aicore__ void grouped_matmul_slice_m(GM_ADDR a, GM_ADDR b, GM_ADDR groupList, GM_ADDR c,
                                                             GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA_WITH_STRUCT(GroupedTiling, t, tiling);
    GlobalTensor<DTYPE_A> ga, gb;
    GlobalTensor<DTYPE_C> gc;
    GlobalTensor<int64_t> ends;
    ga.SetGlobalBuffer((__gm__ DTYPE_A*)a, static_cast<uint64_t>(t.m) * t.k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B*)b, static_cast<uint64_t>(t.groups) * t.k * t.n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C*)c, static_cast<uint64_t>(t.m) * t.n);
    ends.SetGlobalBuffer((__gm__ int64_t*)groupList, t.groups);
    TPipe pipe;
    cube_kernels::CubeTile<DTYPE_A> tile;
    tile.Init(&pipe);
    const uint32_t tilesN = cube_kernels::CeilDiv(t.n, cube_kernels::TILE_N);
    const uint32_t core = GetBlockIdx(), cores = GetBlockNum();
    uint32_t first = 0;      // sequence number of the group's first tile
    uint32_t start = 0;
    for (uint32_t g = 0; g < t.groups; ++g) {
        const uint32_t end = static_cast<uint32_t>(ends.GetValue(g));
        const uint32_t rows = end > start ? end - start : 0;
        const uint32_t tiles = cube_kernels::CeilDiv(rows, cube_kernels::TILE_M) * tilesN;
        // This core's first tile of the group.
        uint32_t i = first % cores <= core ? core - first % cores : core + cores - first % cores;
        for (; i < tiles; i += cores) {
            const uint32_t m0 = (i / tilesN) * cube_kernels::TILE_M, n0 = (i % tilesN) * cube_kernels::TILE_N;
            const uint32_t m = rows - m0 < cube_kernels::TILE_M ? rows - m0 : cube_kernels::TILE_M;
            const uint32_t n = t.n - n0 < cube_kernels::TILE_N ? t.n - n0 : cube_kernels::TILE_N;
            tile.Compute(ga[static_cast<uint64_t>(start + m0) * t.k], t.k, false,
                         gb[static_cast<uint64_t>(g) * t.k * t.n + n0], t.n, false, m, n, t.k);
            tile.Store(gc[static_cast<uint64_t>(start + m0) * t.n + n0], t.n);
        }
        first += tiles;
        start = end > start ? end : start;
    }
    tile.End();
}
