// Mla (multi-head latent attention, decode) as a mixed kernel. All heads of a sequence attend to the
// same compressed cache, so the query rows (token, head) of a sequence form the M dimension of both
// products: S = Q_nope C^T + Q_rope R^T (C, R: the sequence's cache pages, gathered through the block
// table page by page), out = softmax(S / sqrt(Dn + Dr)) C. cube_kernels::AttentionMix runs the products on the
// cube core (P C accumulated over the pages in L0C) and the softmax on the vector cores.
#include "kernel_operator.h"
#include "attention_pipeline.h"

using namespace AscendC;

constexpr uint32_t MAX_BATCH = 64;

struct MlaTiling {
    uint32_t batch, heads, dn, dr, blockSize, maxBlocks, maxKv, numBlocks;
    float scale;
    uint32_t qStart[MAX_BATCH], qLen[MAX_BATCH], kvLen[MAX_BATCH];
    uint32_t firstUnit[MAX_BATCH + 1];
};

template <typename T>
class MlaProblem {
public:
    using InT = T;
    using OutT = T;

    __aicore__ inline MlaProblem(const MlaTiling& t, GM_ADDR qn, GM_ADDR qr, GM_ADDR kvn, GM_ADDR kvr, GM_ADDR tables,
                                 GM_ADDR out)
        : t_(t)
    {
        const uint32_t tokens = t.qStart[t.batch - 1] + t.qLen[t.batch - 1];
        const uint64_t rows = static_cast<uint64_t>(tokens) * t.heads;
        qn_.SetGlobalBuffer((__gm__ T*)qn, rows * t.dn);
        qr_.SetGlobalBuffer((__gm__ T*)qr, rows * t.dr);
        out_.SetGlobalBuffer((__gm__ T*)out, rows * t.dn);
        const uint64_t cached = static_cast<uint64_t>(t.numBlocks) * t.blockSize;
        kvn_.SetGlobalBuffer((__gm__ T*)kvn, cached * t.dn);
        kvr_.SetGlobalBuffer((__gm__ T*)kvr, cached * t.dr);
        tables_.SetGlobalBuffer((__gm__ int32_t*)tables, static_cast<uint64_t>(t.batch) * t.maxBlocks);
    }

    __aicore__ inline uint32_t UnitCount() const { return t_.firstUnit[t_.batch]; }
    __aicore__ inline void Unit(uint32_t i, cube_kernels::AttnUnit& u) const
    {
        uint32_t b = 0;
        while (t_.firstUnit[b + 1] <= i) ++b;
        const uint32_t rows = t_.qLen[b] * t_.heads;
        u.a = b;
        u.c = (i - t_.firstUnit[b]) * cube_kernels::TILE_M;          // first row of the sequence's (token, head) rows
        u.m = rows - u.c < cube_kernels::TILE_M ? rows - u.c : cube_kernels::TILE_M;
        u.kv = t_.kvLen[b];
    }
    __aicore__ inline uint32_t MaxKv() const { return t_.maxKv; }
    __aicore__ inline uint32_t Dv() const { return t_.dn; }
    __aicore__ inline float Scale() const { return t_.scale; }

    __aicore__ inline void Scores(cube_kernels::CubeTile<T>& tile, const cube_kernels::AttnUnit& u, const GlobalTensor<float>& s,
                                  uint32_t lds)
    {
        const uint64_t row = static_cast<uint64_t>(t_.qStart[u.a]) * t_.heads + u.c;
        for (uint32_t p = 0; p * t_.blockSize < u.kv; ++p) {
            const uint64_t page = static_cast<uint64_t>(tables_.GetValue(static_cast<uint64_t>(u.a) * t_.maxBlocks + p));
            const uint32_t len = u.kv - p * t_.blockSize < t_.blockSize ? u.kv - p * t_.blockSize : t_.blockSize;
            for (uint32_t n0 = 0; n0 < len; n0 += cube_kernels::TILE_N) {
                const uint32_t n = len - n0 < cube_kernels::TILE_N ? len - n0 : cube_kernels::TILE_N;
                const uint64_t tok = page * t_.blockSize + n0;
                tile.Compute(qn_[row * t_.dn], t_.dn, false, kvn_[tok * t_.dn], t_.dn, true, u.m, n, t_.dn);
                tile.Compute(qr_[row * t_.dr], t_.dr, false, kvr_[tok * t_.dr], t_.dr, true, u.m, n, t_.dr, true);
                tile.Store(s[p * t_.blockSize + n0], lds);
            }
        }
    }

    __aicore__ inline void Values(cube_kernels::CubeTile<T>& tile, const cube_kernels::AttnUnit& u, const GlobalTensor<T>& p, uint32_t ldp,
                                  const GlobalTensor<float>& o, uint32_t ldo)
    {
        for (uint32_t d0 = 0; d0 < t_.dn; d0 += cube_kernels::TILE_N) {
            const uint32_t n = t_.dn - d0 < cube_kernels::TILE_N ? t_.dn - d0 : cube_kernels::TILE_N;
            for (uint32_t pg = 0; pg * t_.blockSize < u.kv; ++pg) {
                const uint64_t page =
                    static_cast<uint64_t>(tables_.GetValue(static_cast<uint64_t>(u.a) * t_.maxBlocks + pg));
                const uint32_t len = u.kv - pg * t_.blockSize < t_.blockSize ? u.kv - pg * t_.blockSize : t_.blockSize;
                tile.Compute(p[pg * t_.blockSize], ldp, false, kvn_[page * t_.blockSize * t_.dn + d0], t_.dn, false,
                             u.m, n, len, pg > 0);
            }
            tile.Store(o[d0], ldo);
        }
    }

    __aicore__ inline void StoreOut(const cube_kernels::AttnUnit& u, uint32_t row, uint32_t rows, const LocalTensor<T>& out,
                                    uint32_t ldUb)
    {
        const uint64_t r = static_cast<uint64_t>(t_.qStart[u.a]) * t_.heads + u.c + row;
        cube_kernels::StoreRows(out_[r * t_.dn], out, rows, t_.dn, t_.dn, ldUb);
    }
    __aicore__ inline void StoreStats(const cube_kernels::AttnUnit&, uint32_t, uint32_t, const LocalTensor<float>&,
                                      const LocalTensor<float>&)
    {
    }

private:
    MlaTiling t_;
    GlobalTensor<T> qn_, qr_, kvn_, kvr_, out_;
    GlobalTensor<int32_t> tables_;
};

extern "C" __global__ __aicore__ void mla(GM_ADDR queryNope, GM_ADDR queryRope, GM_ADDR kvNopeCache,
                                          GM_ADDR kvRopeCache, GM_ADDR blockTables, GM_ADDR out, GM_ADDR workspace,
                                          GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MlaTiling, t, tiling);
    MlaProblem<DTYPE_QUERY_NOPE> problem(t, queryNope, queryRope, kvNopeCache, kvRopeCache, blockTables, out);
    cube_kernels::AttentionMix<MlaProblem<DTYPE_QUERY_NOPE>> mix;
    mix.Run(problem, GetUserWorkspace(workspace));
}
