// GroupGemm as a mixed kernel: the 128 x 256 tiles of all groups form one sequence (group by
// group); cube cores compute A_g @ B_g tiles into float workspace slots (cube_kernels::RunMix), vector cores
// finish them as alpha_g * AB + beta_g * C_g in float32 and round once to float16.
#include "kernel_operator.h"
#include "cube_vector_mix.h"

using namespace AscendC;

constexpr uint32_t MAX_GROUPS = 64;

struct GroupGemmTiling {
    uint32_t groups;
    uint32_t m[MAX_GROUPS], k[MAX_GROUPS], n[MAX_GROUPS];
};

class Problem {
public:
    using InT = half;
    static constexpr uint32_t ROWS = 16;

    __aicore__ inline Problem(const GroupGemmTiling& t, GM_ADDR aAddr, GM_ADDR bAddr, GM_ADDR cAddr, GM_ADDR alpha,
                              GM_ADDR beta, GM_ADDR dAddr)
        : t_(t)
    {
        uint64_t aLen = 0, bLen = 0, cLen = 0;
        firstTile_[0] = 0;
        for (uint32_t g = 0; g < t.groups; ++g) {
            aOff_[g] = aLen;
            bOff_[g] = bLen;
            cOff_[g] = cLen;
            aLen += static_cast<uint64_t>(t.m[g]) * t.k[g];
            bLen += static_cast<uint64_t>(t.k[g]) * t.n[g];
            cLen += static_cast<uint64_t>(t.m[g]) * t.n[g];
            tilesN_[g] = cube_kernels::CeilDiv(t.n[g], cube_kernels::TILE_N);
            firstTile_[g + 1] = firstTile_[g] + cube_kernels::CeilDiv(t.m[g], cube_kernels::TILE_M) * tilesN_[g];
        }
        a.SetGlobalBuffer((__gm__ half*)aAddr, aLen);
        b.SetGlobalBuffer((__gm__ half*)bAddr, bLen);
        c_.SetGlobalBuffer((__gm__ half*)cAddr, cLen);
        d_.SetGlobalBuffer((__gm__ half*)dAddr, cLen);
        alpha_.SetGlobalBuffer((__gm__ float*)alpha, t.groups);
        beta_.SetGlobalBuffer((__gm__ float*)beta, t.groups);
    }
    __aicore__ inline uint32_t TileCount() const { return firstTile_[t_.groups]; }
    __aicore__ inline void Tile(uint32_t i, cube_kernels::TileDesc& d) const
    {
        uint32_t g = 0;
        while (firstTile_[g + 1] <= i) ++g;
        const uint32_t j = i - firstTile_[g];
        d.g = g;
        d.m0 = (j / tilesN_[g]) * cube_kernels::TILE_M;
        d.n0 = (j % tilesN_[g]) * cube_kernels::TILE_N;
        d.m = t_.m[g] - d.m0 < cube_kernels::TILE_M ? t_.m[g] - d.m0 : cube_kernels::TILE_M;
        d.n = t_.n[g] - d.n0 < cube_kernels::TILE_N ? t_.n[g] - d.n0 : cube_kernels::TILE_N;
        d.k = t_.k[g];
        d.aOff = aOff_[g] + static_cast<uint64_t>(d.m0) * t_.k[g];
        d.lda = t_.k[g];
        d.bOff = bOff_[g] + d.n0;
        d.ldb = t_.n[g];
    }
    __aicore__ inline void InitVector(TPipe* pipe)
    {
        pipe->InitBuffer(acc_, ROWS * cube_kernels::TILE_N * sizeof(float));
        pipe->InitBuffer(cIn_, ROWS * cube_kernels::TILE_N * sizeof(half));
        pipe->InitBuffer(cF_, ROWS * cube_kernels::TILE_N * sizeof(float));
        pipe->InitBuffer(out_, ROWS * cube_kernels::TILE_N * sizeof(half));
    }
    __aicore__ inline void Epilogue(const cube_kernels::TileDesc& d, const GlobalTensor<float>& acc, uint32_t row0, uint32_t rows)
    {
        const uint32_t ldc = t_.n[d.g];
        const uint32_t nPad = cube_kernels::AlignUp(d.n, 16);
        const float alpha = alpha_.GetValue(d.g), beta = beta_.GetValue(d.g);
        const GlobalTensor<half> c = c_[cOff_[d.g] + static_cast<uint64_t>(d.m0) * ldc + d.n0];
        const GlobalTensor<half> out = d_[cOff_[d.g] + static_cast<uint64_t>(d.m0) * ldc + d.n0];
        LocalTensor<float> x = acc_.Get<float>(), y = cF_.Get<float>();
        LocalTensor<half> ci = cIn_.Get<half>(), o = out_.Get<half>();
        for (uint32_t r = 0; r < rows; r += ROWS) {
            const uint32_t cnt = rows - r < ROWS ? rows - r : ROWS;
            const uint32_t row = row0 + r;
            cube_kernels::LoadRows(x, acc[static_cast<uint64_t>(row) * d.n], cnt, d.n, d.n, nPad);
            cube_kernels::LoadRows(ci, c[static_cast<uint64_t>(row) * ldc], cnt, d.n, ldc, nPad);
            cube_kernels::LoadsDone();
            Muls(x, x, alpha, cnt * nPad);
            if (beta != 0.0f) {              // beta = 0: C is not read into the result (NaN-safe)
                Cast(y, ci, RoundMode::CAST_NONE, cnt * nPad);
                Axpy(x, y, beta, cnt * nPad);
            }
            Cast(o, x, RoundMode::CAST_RINT, cnt * nPad);
            cube_kernels::ComputeDone();
            cube_kernels::StoreRows(out[static_cast<uint64_t>(row) * ldc], o, cnt, d.n, ldc, nPad);
            cube_kernels::StoresDone();
        }
    }

    GlobalTensor<half> a, b;

private:
    GroupGemmTiling t_;
    GlobalTensor<half> c_, d_;
    GlobalTensor<float> alpha_, beta_;
    uint64_t aOff_[MAX_GROUPS], bOff_[MAX_GROUPS], cOff_[MAX_GROUPS];
    uint32_t tilesN_[MAX_GROUPS];
    uint32_t firstTile_[MAX_GROUPS + 1];
    TBuf<TPosition::VECCALC> acc_, cIn_, cF_, out_;
};

extern "C" __global__ __aicore__ void group_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR alpha, GM_ADDR beta,
                                                 GM_ADDR d, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(GroupGemmTiling, t, tiling);
    Problem problem(t, a, b, c, alpha, beta, d);
    cube_kernels::RunMix(problem, GetUserWorkspace(workspace));
}
