// GroupedMatmulSliceMPerTokenDequant as a mixed kernel: the tiles of all groups (group by group, 128 x
// 256 tiles of each group's rows) form one sequence; cube cores produce int32 tiles (cube_kernels::RunMix),
// vector cores dequantise them with the group's column scales and the tokens' scales.
#include "kernel_operator.h"
#include "cube_vector_mix.h"

using namespace AscendC;

struct GroupedTiling {
    uint32_t m, n, k, groups;
};

constexpr uint32_t MAX_GROUPS = 256;

class Problem {
public:
    using InT = int8_t;

    __aicore__ inline Problem(const GroupedTiling& t, GM_ADDR aAddr, GM_ADDR bAddr, GM_ADDR scale, GM_ADDR pts,
                              GM_ADDR groupList, GM_ADDR outAddr)
        : t_(t)
    {
        a.SetGlobalBuffer((__gm__ int8_t*)aAddr, static_cast<uint64_t>(t.m) * t.k);
        b.SetGlobalBuffer((__gm__ int8_t*)bAddr, static_cast<uint64_t>(t.groups) * t.k * t.n);
        scale_.SetGlobalBuffer((__gm__ bfloat16_t*)scale, static_cast<uint64_t>(t.groups) * t.n);
        pts_.SetGlobalBuffer((__gm__ bfloat16_t*)pts, t.m);
        out_.SetGlobalBuffer((__gm__ bfloat16_t*)outAddr, static_cast<uint64_t>(t.m) * t.n);
        GlobalTensor<int64_t> ends;
        ends.SetGlobalBuffer((__gm__ int64_t*)groupList, t.groups);
        // Prefix of tile counts: tiles of group g are [firstTile_[g], firstTile_[g + 1]).
        tilesN_ = cube_kernels::CeilDiv(t.n, cube_kernels::TILE_N);
        groups_ = t.groups < MAX_GROUPS ? t.groups : MAX_GROUPS;
        uint32_t start = 0;
        firstTile_[0] = 0;
        for (uint32_t g = 0; g < groups_; ++g) {
            const uint32_t end = static_cast<uint32_t>(ends.GetValue(g));
            start_[g] = start;
            rows_[g] = end > start ? end - start : 0;
            firstTile_[g + 1] = firstTile_[g] + cube_kernels::CeilDiv(rows_[g], cube_kernels::TILE_M) * tilesN_;
            start = end > start ? end : start;
        }
    }
    __aicore__ inline uint32_t TileCount() const { return firstTile_[groups_]; }
    __aicore__ inline void Tile(uint32_t i, cube_kernels::TileDesc& d) const
    {
        uint32_t g = 0;
        while (firstTile_[g + 1] <= i) ++g;
        const uint32_t j = i - firstTile_[g];
        d.g = g;
        d.m0 = start_[g] + (j / tilesN_) * cube_kernels::TILE_M;
        d.n0 = (j % tilesN_) * cube_kernels::TILE_N;
        d.m = start_[g] + rows_[g] - d.m0 < cube_kernels::TILE_M ? start_[g] + rows_[g] - d.m0 : cube_kernels::TILE_M;
        d.n = t_.n - d.n0 < cube_kernels::TILE_N ? t_.n - d.n0 : cube_kernels::TILE_N;
        d.k = t_.k;
        d.aOff = static_cast<uint64_t>(d.m0) * t_.k;
        d.lda = t_.k;
        d.bOff = static_cast<uint64_t>(g) * t_.k * t_.n + d.n0;
        d.ldb = t_.n;
    }
    __aicore__ inline void InitVector(TPipe* pipe) { epilogue_.Init(pipe); }
    __aicore__ inline void Epilogue(const cube_kernels::TileDesc& d, const GlobalTensor<int32_t>& acc, uint32_t row0, uint32_t rows)
    {
        epilogue_.Run(d.n, acc, row0, rows, scale_[static_cast<uint64_t>(d.g) * t_.n + d.n0], pts_[d.m0],
                      out_[static_cast<uint64_t>(d.m0) * t_.n + d.n0], t_.n);
    }

    GlobalTensor<int8_t> a, b;

private:
    GroupedTiling t_;
    GlobalTensor<bfloat16_t> scale_, pts_, out_;
    uint32_t tilesN_ = 0, groups_ = 0;
    uint32_t firstTile_[MAX_GROUPS + 1];
    uint32_t start_[MAX_GROUPS];
    uint32_t rows_[MAX_GROUPS];
    cube_kernels::DequantEpilogue<bfloat16_t, bfloat16_t> epilogue_;
};

extern "C" __global__ __aicore__ void grouped_matmul_slice_m_per_token_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale,
                                                                               GM_ADDR perTokenScale, GM_ADDR groupList,
                                                                               GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(GroupedTiling, t, tiling);
    Problem problem(t, a, b, scale, perTokenScale, groupList, out);
    cube_kernels::RunMix(problem, GetUserWorkspace(workspace));
}
