// FlashAttentionScoreWithLargeHeadDim (BSH layout, no mask) as a mixed kernel: a unit is one (batch,
// head, block of 128 query rows); cube_kernels::AttentionMix runs S = Q K^T and O = P V on the cube core
// (K streamed through L1 in chunks, so head dims of 512 and more fit) and the softmax on the vector
// cores, which also write the row maxima and sums (each repeated 8 times).
#include "kernel_operator.h"
#include "attention_pipeline.h"

using namespace AscendC;

struct FaTiling {
    uint32_t batch, heads, s1, s2, dim;
    float scale;
};

class FaProblem {
public:
    using InT = half;
    using OutT = half;

    __aicore__ inline FaProblem(const FaTiling& t, GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR mx, GM_ADDR sum,
                                GM_ADDR out)
        : t_(t), hidden_(static_cast<uint64_t>(t.heads) * t.dim), qBlocks_(cube_kernels::CeilDiv(t.s1, cube_kernels::TILE_M))
    {
        q_.SetGlobalBuffer((__gm__ half*)q, static_cast<uint64_t>(t.batch) * t.s1 * hidden_);
        k_.SetGlobalBuffer((__gm__ half*)k, static_cast<uint64_t>(t.batch) * t.s2 * hidden_);
        v_.SetGlobalBuffer((__gm__ half*)v, static_cast<uint64_t>(t.batch) * t.s2 * hidden_);
        out_.SetGlobalBuffer((__gm__ half*)out, static_cast<uint64_t>(t.batch) * t.s1 * hidden_);
        max_.SetGlobalBuffer((__gm__ float*)mx, static_cast<uint64_t>(t.batch) * t.heads * t.s1 * 8);
        sum_.SetGlobalBuffer((__gm__ float*)sum, static_cast<uint64_t>(t.batch) * t.heads * t.s1 * 8);
    }

    __aicore__ inline uint32_t UnitCount() const { return t_.batch * t_.heads * qBlocks_; }
    __aicore__ inline void Unit(uint32_t i, cube_kernels::AttnUnit& u) const
    {
        u.c = (i % qBlocks_) * cube_kernels::TILE_M;     // first query row
        u.b = (i / qBlocks_) % t_.heads;       // head
        u.a = i / qBlocks_ / t_.heads;         // batch
        u.m = t_.s1 - u.c < cube_kernels::TILE_M ? t_.s1 - u.c : cube_kernels::TILE_M;
        u.kv = t_.s2;
    }
    __aicore__ inline uint32_t MaxKv() const { return t_.s2; }
    __aicore__ inline uint32_t Dv() const { return t_.dim; }
    __aicore__ inline float Scale() const { return t_.scale; }

    // S[:, n0 : n0 + 256) = Q K[n0 : n0 + 256)^T, K stored [s2 x dim] (B transposed).
    __aicore__ inline void Scores(cube_kernels::CubeTile<half>& tile, const cube_kernels::AttnUnit& u, const GlobalTensor<float>& s,
                                  uint32_t lds)
    {
        const GlobalTensor<half> q = q_[(static_cast<uint64_t>(u.a) * t_.s1 + u.c) * hidden_ + u.b * t_.dim];
        for (uint32_t n0 = 0; n0 < t_.s2; n0 += cube_kernels::TILE_N) {
            const uint32_t n = t_.s2 - n0 < cube_kernels::TILE_N ? t_.s2 - n0 : cube_kernels::TILE_N;
            tile.Compute(q, hidden_, false, k_[(static_cast<uint64_t>(u.a) * t_.s2 + n0) * hidden_ + u.b * t_.dim],
                         hidden_, true, u.m, n, t_.dim);
            tile.Store(s[n0], lds);
        }
    }
    // O[:, d0 : d0 + 256) = P V[:, d0 : d0 + 256), the whole key length accumulated in L0C.
    __aicore__ inline void Values(cube_kernels::CubeTile<half>& tile, const cube_kernels::AttnUnit& u, const GlobalTensor<half>& p,
                                  uint32_t ldp, const GlobalTensor<float>& o, uint32_t ldo)
    {
        for (uint32_t d0 = 0; d0 < t_.dim; d0 += cube_kernels::TILE_N) {
            const uint32_t n = t_.dim - d0 < cube_kernels::TILE_N ? t_.dim - d0 : cube_kernels::TILE_N;
            tile.Compute(p, ldp, false, v_[static_cast<uint64_t>(u.a) * t_.s2 * hidden_ + u.b * t_.dim + d0], hidden_,
                         false, u.m, n, t_.s2);
            tile.Store(o[d0], ldo);
        }
    }

    __aicore__ inline void StoreOut(const cube_kernels::AttnUnit& u, uint32_t row, uint32_t rows, const LocalTensor<half>& out,
                                    uint32_t ldUb)
    {
        cube_kernels::StoreRows(out_[(static_cast<uint64_t>(u.a) * t_.s1 + u.c + row) * hidden_ + u.b * t_.dim], out, rows,
                      t_.dim, hidden_, ldUb);
    }
    __aicore__ inline void StoreStats(const cube_kernels::AttnUnit& u, uint32_t row0, uint32_t rows, const LocalTensor<float>& max8,
                                      const LocalTensor<float>& sum8)
    {
        const uint64_t at = ((static_cast<uint64_t>(u.a) * t_.heads + u.b) * t_.s1 + u.c + row0) * 8;
        DataCopy(max_[at], max8, rows * 8);
        DataCopy(sum_[at], sum8, rows * 8);
    }

private:
    FaTiling t_;
    uint64_t hidden_;
    uint32_t qBlocks_;
    GlobalTensor<half> q_, k_, v_, out_;
    GlobalTensor<float> max_, sum_;
};

extern "C" __global__ __aicore__ void flash_attention_score_with_large_head_dim(GM_ADDR query, GM_ADDR key,
                                                                                GM_ADDR value, GM_ADDR softmaxMax,
                                                                                GM_ADDR softmaxSum, GM_ADDR attentionOut,
                                                                                GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(FaTiling, t, tiling);
    FaProblem problem(t, query, key, value, softmaxMax, softmaxSum, attentionOut);
    cube_kernels::AttentionMix<FaProblem> mix;
    mix.Run(problem, GetUserWorkspace(workspace));
}
