// GroupNormSwish on the vector cores. The N*G groups are split over the cores (big cores take one
// more). A group is D = Cg*HW contiguous elements and may be far larger than UB, so every group is
// read twice:
//   pass 1 streams the group flat in tiles of tileLen elements and accumulates the shifted sums
//          sum(x - s) and sum((x - s)^2) (s = the group's first element, which keeps the variance
//          free of cancellation) in 32-byte slots on the vector unit;
//   pass 2 walks the group's channels: scale = rstd*gamma[c], bias = beta[c] - mean*scale, so
//          z = x*scale + bias is one Muls + one Adds per channel row; then swish on the whole tile.
// Whole channels travel as rows of one DataCopyPad (every row 32-byte aligned in UB); a channel
// larger than a tile is cut into chunks. Queues are double-buffered so MTE2 / V / MTE3 overlap.
// mean / rstd of up to kStatChunk groups are staged in UB and leave with one copy each.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t kBuf = 2;
constexpr uint32_t kSlot = 8;         // floats per 32-byte slot
constexpr uint32_t kStatChunk = 1024;  // must match the host

template <typename T>
class GroupNormSwishKernel {
public:
    __aicore__ inline GroupNormSwishKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR rstd,
                                const GroupNormSwishTilingData& t)
    {
        G = t.groupsPerSample;
        Cg = t.chPerGroup;
        C = t.channels;
        HW = t.hw;
        D = t.groupLen;
        L = t.tileLen;
        R = t.rowsPerTile;
        eps = t.epsilon;
        swishScale = t.swishScale;
        swish = t.activateSwish != 0;
        invD = t.invGroupLen;
        const uint32_t idx = GetBlockIdx();
        myGroups = t.groupsPerCore + (idx < t.bigCoreNum ? 1 : 0);
        start = idx * t.groupsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        meanGm.SetGlobalBuffer((__gm__ float*)mean + start, myGroups);
        rstdGm.SetGlobalBuffer((__gm__ float*)rstd + start, myGroups);
        const uint32_t nb = t.bufNum;
        pipe.InitBuffer(inQ, nb, L * sizeof(T));
        pipe.InitBuffer(outQ, nb, L * sizeof(T));
        pipe.InitBuffer(xBuf, L * sizeof(float));
        pipe.InitBuffer(tmpBuf, L * sizeof(float));
        pipe.InitBuffer(workBuf, (L / 64 + kSlot) * sizeof(float));
        const uint32_t alignedC = (C + 7) / 8 * 8;
        pipe.InitBuffer(paramBuf, 2 * alignedC * sizeof(float));
        pipe.InitBuffer(statBuf, 2 * kStatChunk * sizeof(float));
        pipe.InitBuffer(slotBuf, 8 * kSlot * sizeof(float));
        gammaF = paramBuf.Get<float>();
        betaF = gammaF[alignedC];
        LoadParam(gamma, gammaF);
        LoadParam(beta, betaF);
        LocalTensor<float> slots = slotBuf.Get<float>();
        Duplicate(slots[4 * kSlot], 1.0f, kSlot);  // the "ones" slot for 1 / sqrt
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> stat = statBuf.Get<float>();
        uint32_t staged = 0;
        uint32_t flushedUpTo = 0;
        for (uint32_t k = 0; k < myGroups; ++k) {
            const uint64_t gi = start + k;
            float mean = 0.0f;
            float rstd = 0.0f;
            Statistics(gi, mean, rstd);
            stat.SetValue(staged, mean);
            stat.SetValue(kStatChunk + staged, rstd);
            ++staged;
            Normalize(gi, mean, rstd);
            if (staged == kStatChunk || k + 1 == myGroups) {
                FlushStats(stat, flushedUpTo, staged);
                flushedUpTo += staged;
                staged = 0;
            }
        }
    }

private:
    // gamma / beta (C elements of T) -> float32 UB vectors, through the input queue in tiles.
    __aicore__ inline void LoadParam(GM_ADDR src, const LocalTensor<float>& dst)
    {
        GlobalTensor<T> gm;
        gm.SetGlobalBuffer((__gm__ T*)src, C);
        for (uint32_t off = 0; off < C; off += L) {
            const uint32_t len = (C - off) < L ? (C - off) : L;
            LocalTensor<T> l = inQ.template AllocTensor<T>();
            DataCopyPad(l, gm[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(l);
            l = inQ.template DeQue<T>();
            if constexpr (std::is_same_v<T, float>) {
                Adds(dst[off], l, 0.0f, len);
            } else {
                Cast(dst[off], l, RoundMode::CAST_NONE, len);
            }
            inQ.FreeTensor(l);
        }
        WaitVector();
    }

    __aicore__ inline void WaitVector()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    // Pass 1: mean and rstd of group gi from shifted sums, accumulated tile by tile.
    __aicore__ inline void Statistics(uint64_t gi, float& mean, float& rstd)
    {
        const uint64_t base = gi * D;
        LocalTensor<float> slots = slotBuf.Get<float>();
        LocalTensor<float> acc1 = slots;
        LocalTensor<float> acc2 = slots[kSlot];
        LocalTensor<float> red1 = slots[2 * kSlot];
        LocalTensor<float> red2 = slots[3 * kSlot];
        LocalTensor<float> ones = slots[4 * kSlot];
        LocalTensor<float> m = slots[5 * kSlot];
        LocalTensor<float> v = slots[6 * kSlot];
        LocalTensor<float> r = slots[7 * kSlot];
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        Duplicate(acc1, 0.0f, 2 * kSlot);
        float shift = 0.0f;
        for (uint32_t off = 0; off < D; off += L) {
            const uint32_t len = (D - off) < L ? (D - off) : L;
            LocalTensor<T> l = inQ.template AllocTensor<T>();
            DataCopyPad(l, xGm[base + off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQ.EnQue(l);
            l = inQ.template DeQue<T>();
            LocalTensor<float> xf;
            if constexpr (std::is_same_v<T, float>) {
                xf = l;
            } else {
                xf = xBuf.Get<float>();
                Cast(xf, l, RoundMode::CAST_NONE, len);
            }
            if (off == 0) {
                WaitVector();
                shift = xf.GetValue(0);
            }
            Adds(xf, xf, -shift, len);
            ReduceSum(red1, xf, work, len);
            Mul(tmp, xf, xf, len);
            ReduceSum(red2, tmp, work, len);
            Add(acc1, acc1, red1, 1);
            Add(acc2, acc2, red2, 1);
            inQ.FreeTensor(l);
        }
        // m = E[x - s]; var = E[(x - s)^2] - m^2; rstd = 1 / sqrt(max(var, 0) + eps)
        Muls(m, acc1, invD, 1);
        Mul(r, m, m, 1);
        Muls(v, acc2, invD, 1);
        Sub(v, v, r, 1);
        Maxs(v, v, 0.0f, 1);
        Adds(v, v, eps, 1);
        Sqrt(v, v, 1);
        Div(r, ones, v, 1);
        WaitVector();
        mean = shift + m.GetValue(0);
        rstd = r.GetValue(0);
    }

    // z = x*scale[c] + bias[c] on rows of stride s (r rows), then swish; res may alias src.
    __aicore__ inline void AffineSwish(const LocalTensor<float>& res, const LocalTensor<float>& src, uint32_t c,
                                       uint32_t r, uint32_t s, uint32_t len, float mean, float rstd)
    {
        for (uint32_t i = 0; i < r; ++i) {
            const float sc = rstd * gammaF.GetValue(c + i);
            const float bi = betaF.GetValue(c + i) - mean * sc;
            Muls(res[i * s], src[i * s], sc, len);
            Adds(res[i * s], res[i * s], bi, len);
        }
        if (swish) {
            const uint32_t n = r == 1 ? len : r * s;
            LocalTensor<float> tmp = tmpBuf.Get<float>();
            Muls(tmp, res, swishScale, n);
            Sigmoid(tmp, tmp, n);
            Mul(res, res, tmp, n);
        }
    }

    // One tile of pass 2: r rows of len elements (GM rows HW apart) starting at element off of x.
    __aicore__ inline void NormalizeTile(uint64_t off, uint32_t c, uint32_t r, uint32_t len, float mean, float rstd)
    {
        constexpr uint32_t epb = 32 / sizeof(T);
        const uint32_t s = (len + epb - 1) / epb * epb;
        const uint32_t gap = static_cast<uint32_t>((HW - len) * sizeof(T));
        LocalTensor<T> l = inQ.template AllocTensor<T>();
        DataCopyPad(l, xGm[off], DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(len * sizeof(T)), gap, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQ.EnQue(l);
        l = inQ.template DeQue<T>();
        LocalTensor<T> o = outQ.template AllocTensor<T>();
        const uint32_t n = r * s;
        if constexpr (std::is_same_v<T, float>) {
            AffineSwish(o, l, c, r, s, len, mean, rstd);
        } else {
            LocalTensor<float> xf = xBuf.Get<float>();
            Cast(xf, l, RoundMode::CAST_NONE, n);
            AffineSwish(xf, xf, c, r, s, len, mean, rstd);
            Cast(o, xf, RoundMode::CAST_RINT, n);
        }
        inQ.FreeTensor(l);
        outQ.EnQue(o);
        o = outQ.template DeQue<T>();
        DataCopyPad(yGm[off], o, DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(len * sizeof(T)), 0, gap, 0});
        outQ.FreeTensor(o);
    }

    // Pass 2 over group gi.
    __aicore__ inline void Normalize(uint64_t gi, float mean, float rstd)
    {
        const uint64_t base = gi * D;
        const uint32_t c0 = static_cast<uint32_t>(gi % G) * Cg;
        if (R > 0) {
            for (uint32_t ch = 0; ch < Cg; ch += R) {
                const uint32_t r = (Cg - ch) < R ? (Cg - ch) : R;
                NormalizeTile(base + uint64_t(ch) * HW, c0 + ch, r, HW, mean, rstd);
            }
        } else {
            for (uint32_t ch = 0; ch < Cg; ++ch) {
                for (uint32_t h = 0; h < HW; h += L) {
                    const uint32_t len = (HW - h) < L ? (HW - h) : L;
                    NormalizeTile(base + uint64_t(ch) * HW + h, c0 + ch, 1, len, mean, rstd);
                }
            }
        }
    }

    __aicore__ inline void FlushStats(const LocalTensor<float>& stat, uint32_t at, uint32_t count)
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        const DataCopyExtParams p{1, static_cast<uint32_t>(count * sizeof(float)), 0, 0, 0};
        DataCopyPad(meanGm[at], stat, p);
        DataCopyPad(rstdGm[at], stat[kStatChunk], p);
        event_t back = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(back);
        WaitFlag<HardEvent::MTE3_S>(back);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kBuf> inQ;
    TQue<QuePosition::VECOUT, kBuf> outQ;
    TBuf<QuePosition::VECCALC> xBuf, tmpBuf, workBuf, paramBuf, statBuf, slotBuf;
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> meanGm, rstdGm;
    LocalTensor<float> gammaF, betaF;
    uint32_t G = 1, Cg = 1, C = 1, HW = 1, D = 1, L = 64, R = 0, myGroups = 0;
    uint64_t start = 0;
    float eps = 1e-5f, swishScale = 1.0f, invD = 1.0f;
    bool swish = true;
};
}  // namespace

extern "C" __global__ __aicore__ void group_norm_swish(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                       GM_ADDR mean, GM_ADDR rstd, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GroupNormSwishKernel<DTYPE_X> op;
    op.Init(x, gamma, beta, y, mean, rstd, tilingData);
    op.Process();
}
