// GroupedMatmulSliceKPerTokenDequant as a mixed kernel: every group's [M, N] output is cut into 128 x 256
// tiles (all groups' tiles one sequence); cube cores multiply the group's K rows of A^T and B into int32
// tiles (A loaded as stored, its 32 x 32 int8 squares transposed into L0A; an empty group gives a zero
// tile), vector cores dequantise with the group's column and token scales.
#include "kernel_operator.h"
#include "cube_vector_mix.h"

using namespace AscendC;

struct GroupedTiling {
    uint32_t m, n, k, groups;
};

class Problem {
public:
    using InT = int8_t;

    __aicore__ inline Problem(const GroupedTiling& t, GM_ADDR aAddr, GM_ADDR bAddr, GM_ADDR scale, GM_ADDR pts,
                              GM_ADDR groupList, GM_ADDR outAddr)
        : t_(t)
    {
        a.SetGlobalBuffer((__gm__ int8_t*)aAddr, static_cast<uint64_t>(t.k) * t.m);
        b.SetGlobalBuffer((__gm__ int8_t*)bAddr, static_cast<uint64_t>(t.k) * t.n);
        scale_.SetGlobalBuffer((__gm__ bfloat16_t*)scale, static_cast<uint64_t>(t.groups) * t.n);
        pts_.SetGlobalBuffer((__gm__ bfloat16_t*)pts, static_cast<uint64_t>(t.groups) * t.m);
        out_.SetGlobalBuffer((__gm__ bfloat16_t*)outAddr, static_cast<uint64_t>(t.groups) * t.m * t.n);
        ends_.SetGlobalBuffer((__gm__ int64_t*)groupList, t.groups);
        tilesM_ = cube_kernels::CeilDiv(t.m, cube_kernels::TILE_M);
        tilesN_ = cube_kernels::CeilDiv(t.n, cube_kernels::TILE_N);
    }
    __aicore__ inline uint32_t TileCount() const { return t_.groups * tilesM_ * tilesN_; }
    __aicore__ inline void Tile(uint32_t i, cube_kernels::TileDesc& d) const
    {
        d.g = i / (tilesM_ * tilesN_);
        const uint32_t j = i % (tilesM_ * tilesN_);
        const uint32_t start = d.g == 0 ? 0 : static_cast<uint32_t>(ends_.GetValue(d.g - 1));
        const uint32_t end = static_cast<uint32_t>(ends_.GetValue(d.g));
        d.m0 = (j / tilesN_) * cube_kernels::TILE_M;
        d.n0 = (j % tilesN_) * cube_kernels::TILE_N;
        d.m = t_.m - d.m0 < cube_kernels::TILE_M ? t_.m - d.m0 : cube_kernels::TILE_M;
        d.n = t_.n - d.n0 < cube_kernels::TILE_N ? t_.n - d.n0 : cube_kernels::TILE_N;
        d.k = end > start ? end - start : 0;
        d.aOff = static_cast<uint64_t>(start) * t_.m + d.m0;
        d.lda = t_.m;
        d.aTrans = true;
        d.bOff = static_cast<uint64_t>(start) * t_.n + d.n0;
        d.ldb = t_.n;
    }
    __aicore__ inline void InitVector(TPipe* pipe) { epilogue_.Init(pipe); }
    __aicore__ inline void Epilogue(const cube_kernels::TileDesc& d, const GlobalTensor<int32_t>& acc, uint32_t row0, uint32_t rows)
    {
        epilogue_.Run(d.n, acc, row0, rows, scale_[static_cast<uint64_t>(d.g) * t_.n + d.n0],
                      pts_[static_cast<uint64_t>(d.g) * t_.m + d.m0],
                      out_[static_cast<uint64_t>(d.g) * t_.m * t_.n + static_cast<uint64_t>(d.m0) * t_.n + d.n0], t_.n);
    }

    GlobalTensor<int8_t> a, b;

private:
    GroupedTiling t_;
    GlobalTensor<bfloat16_t> scale_, pts_, out_;
    GlobalTensor<int64_t> ends_;
    uint32_t tilesM_ = 0, tilesN_ = 0;
    cube_kernels::DequantEpilogue<bfloat16_t, bfloat16_t> epilogue_;
};

extern "C" __global__ __aicore__ void grouped_matmul_slice_k_per_token_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR scale,
                                                                               GM_ADDR perTokenScale, GM_ADDR groupList,
                                                                               GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(GroupedTiling, t, tiling);
    Problem problem(t, a, b, scale, perTokenScale, groupList, out);
    cube_kernels::RunMix(problem, GetUserWorkspace(workspace));
}
