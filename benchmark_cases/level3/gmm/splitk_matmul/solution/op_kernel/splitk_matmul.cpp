// SplitkMatmul as a mixed kernel in three phases separated by SyncAll over every core:
//   1. vector cores zero the float workspace W[M x N];
//   2. cube cores compute partial tiles, one (tile, K range) work item at a time, and add them into W
//      with Fixpipe under SetAtomicAdd<float>;
//   3. vector cores round W to float16 into C.
#include "kernel_operator.h"
#include "cube_pipeline.h"

using namespace AscendC;

struct MatmulTiling {
    uint32_t m, n, k, tileM, tileN, tilesM, tilesN, batch;
};
struct SplitkTiling {
    MatmulTiling mm;
    uint32_t splits;
    uint32_t kSplit;
};

constexpr uint32_t CHUNK = 8192;   // floats per vector step

extern "C" __global__ __aicore__ void splitk_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(SplitkTiling, st, tiling);
    const MatmulTiling& t = st.mm;
    const uint64_t total = static_cast<uint64_t>(t.m) * t.n;
    GlobalTensor<half> ga, gb, gc;
    GlobalTensor<float> w;
    ga.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.m) * t.k);
    gb.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.k) * t.n);
    gc.SetGlobalBuffer((__gm__ half*)c, total);
    w.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), total);
    TPipe pipe;
    // The vector cores' share of the M x N elements (whole 32-byte blocks, the last one takes the tail).
    const uint32_t workers = GetBlockNum() * GetSubBlockNum();
    const uint64_t share = (total + workers * 8 - 1) / (workers * 8) * 8;
    const uint64_t v0 = ASCEND_IS_AIV ? static_cast<uint64_t>(GetBlockIdx()) * share : 0;
    const uint64_t v1 = v0 + share < total ? v0 + share : total;
    TBuf<TPosition::VECCALC> fbuf, hbuf;
    if ASCEND_IS_AIV {
        pipe.InitBuffer(fbuf, CHUNK * sizeof(float));
        pipe.InitBuffer(hbuf, CHUNK * sizeof(half));
        LocalTensor<float> zeros = fbuf.Get<float>();
        Duplicate(zeros, 0.0f, CHUNK);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        for (uint64_t i = v0; i < v1; i += CHUNK) {
            const uint32_t cnt = v1 - i < CHUNK ? static_cast<uint32_t>(v1 - i) : CHUNK;
            DataCopyPad(w[i], zeros, DataCopyExtParams(1, cnt * sizeof(float), 0, 0, 0));
        }
    }
    SyncAll<false>();
    if ASCEND_IS_AIC {
        cube_kernels::CubeTile<half> tile;
        tile.Init(&pipe);
        const uint32_t items = t.tilesM * t.tilesN * st.splits;
        for (uint32_t i = GetBlockIdx(); i < items; i += GetBlockNum()) {
            const uint32_t tileIdx = i / st.splits, s = i % st.splits;
            const uint32_t m0 = (tileIdx / t.tilesN) * t.tileM, n0 = (tileIdx % t.tilesN) * t.tileN;
            const uint32_t m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
            const uint32_t n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
            const uint32_t k0 = s * st.kSplit;
            const uint32_t k = t.k - k0 < st.kSplit ? t.k - k0 : st.kSplit;
            tile.Compute(ga[static_cast<uint64_t>(m0) * t.k + k0], t.k, false, gb[static_cast<uint64_t>(k0) * t.n + n0],
                         t.n, false, m, n, k);
            SetAtomicAdd<float>();
            tile.Store(w[static_cast<uint64_t>(m0) * t.n + n0], t.n);
            SetAtomicNone();
        }
        tile.End();
    }
    SyncAll<false>();
    if ASCEND_IS_AIV {
        LocalTensor<float> x = fbuf.Get<float>();
        LocalTensor<half> y = hbuf.Get<half>();
        for (uint64_t i = v0; i < v1; i += CHUNK) {
            const uint32_t cnt = v1 - i < CHUNK ? static_cast<uint32_t>(v1 - i) : CHUNK;
            DataCopyPad(x, w[i], DataCopyExtParams(1, cnt * sizeof(float), 0, 0, 0), DataCopyPadExtParams<float>());
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
            Cast(y, x, RoundMode::CAST_RINT, cnt);
            SetFlag<HardEvent::V_MTE3>(0);
            WaitFlag<HardEvent::V_MTE3>(0);
            DataCopyPad(gc[i], y, DataCopyExtParams(1, cnt * sizeof(half), 0, 0, 0));
            SetFlag<HardEvent::MTE3_MTE2>(0);
            WaitFlag<HardEvent::MTE3_MTE2>(0);
        }
    }
}
