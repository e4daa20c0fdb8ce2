// GroupNormSwishGrad on the vector cores. The N*G groups are split over the cores (big cores take
// one more). Per group (mean / rstd from the forward), walking the group's channels in tiles (whole
// channels as 32-byte aligned rows of one DataCopyPad, or chunks of a long channel):
//   pass 1: xhat = (x - mean) * rstd, z = xhat * gamma[c] + beta[c], sig = sigmoid(s z),
//           dz = dy * sig * (1 + s z (1 - sig)); per channel sum(dz) and sum(dz * xhat) go to this
//           core's partial dbeta / dgamma (float32 in UB), and their gamma-weighted sums give the
//           group means of g = dz * gamma and g * xhat;
//   pass 2: recompute dz and xhat, dx = rstd * (g - mean(g) - xhat * mean(g * xhat)).
// dgamma / dbeta: core 0 zeroes them, SyncAll, and every core adds its partial vector at the end with
// SetAtomicAdd. Queues are double-buffered so MTE2 / V / MTE3 overlap.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t kBuf = 2;
constexpr uint32_t kSlot = 8;

template <typename T>
class GroupNormSwishGradKernel {
public:
    __aicore__ inline GroupNormSwishGradKernel() {}

    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR mean, GM_ADDR rstd, GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                GM_ADDR dx, GM_ADDR dgamma, GM_ADDR dbeta, const GroupNormSwishGradTilingData& t)
    {
        G = t.groupsPerSample;
        Cg = t.chPerGroup;
        C = t.channels;
        HW = t.hw;
        D = t.groupLen;
        L = t.tileLen;
        R = t.rowsPerTile;
        s = t.swishScale;
        invD = t.invGroupLen;
        const uint32_t idx = GetBlockIdx();
        myGroups = t.groupsPerCore + (idx < t.bigCoreNum ? 1 : 0);
        start = idx * t.groupsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        dyGm.SetGlobalBuffer((__gm__ T*)dy);
        xGm.SetGlobalBuffer((__gm__ T*)x);
        dxGm.SetGlobalBuffer((__gm__ T*)dx);
        meanGm.SetGlobalBuffer((__gm__ float*)mean);
        rstdGm.SetGlobalBuffer((__gm__ float*)rstd);
        dgammaGm.SetGlobalBuffer((__gm__ float*)dgamma, C);
        dbetaGm.SetGlobalBuffer((__gm__ float*)dbeta, C);
        const uint32_t nb = t.bufNum;
        pipe.InitBuffer(dyQ, nb, L * sizeof(T));
        pipe.InitBuffer(xQ, nb, L * sizeof(T));
        pipe.InitBuffer(outQ, nb, L * sizeof(T));
        pipe.InitBuffer(dzBuf, L * sizeof(float));
        pipe.InitBuffer(xhBuf, L * sizeof(float));
        pipe.InitBuffer(zBuf, L * sizeof(float));
        pipe.InitBuffer(sigBuf, L * sizeof(float));
        const uint32_t maxRows = R > 0 ? R : 1;
        pipe.InitBuffer(redBuf, 2 * maxRows * kSlot * sizeof(float));
        pipe.InitBuffer(workBuf, (L / 64 + kSlot) * sizeof(float));
        const uint32_t alignedC = (C + 7) / 8 * 8;
        pipe.InitBuffer(paramBuf, 4 * alignedC * sizeof(float));
        LocalTensor<float> p = paramBuf.Get<float>();
        gammaF = p;
        betaF = p[alignedC];
        accG = p[2 * alignedC];
        accB = p[3 * alignedC];
        LoadParam(gamma, gammaF);
        LoadParam(beta, betaF);
        Duplicate(accG, 0.0f, 2 * alignedC);
        if (idx == 0) {  // zero the atomically accumulated outputs once, before any core adds
            Sync<HardEvent::V_MTE3>();
            const DataCopyExtParams cp{1, static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
            DataCopyPad(dgammaGm, accG, cp);
            DataCopyPad(dbetaGm, accB, cp);
            Sync<HardEvent::MTE3_V>();
        }
        Sync<HardEvent::V_S>();
        SyncAll();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < myGroups; ++k) {
            const uint64_t gi = start + k;
            const float mean = meanGm.GetValue(gi);
            const float rstd = rstdGm.GetValue(gi);
            float sumG = 0.0f;
            float sumGX = 0.0f;
            Walk<true>(gi, mean, rstd, sumG, sumGX);
            Walk<false>(gi, mean, rstd, sumG, sumGX);
        }
        if (myGroups == 0) {
            return;
        }
        Sync<HardEvent::S_MTE3>();
        Sync<HardEvent::V_MTE3>();
        const DataCopyExtParams cp{1, static_cast<uint32_t>(C * sizeof(float)), 0, 0, 0};
        SetAtomicAdd<float>();
        DataCopyPad(dgammaGm, accG, cp);
        DataCopyPad(dbetaGm, accB, cp);
        SetAtomicNone();
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void LoadParam(GM_ADDR src, const LocalTensor<float>& dst)
    {
        GlobalTensor<T> gm;
        gm.SetGlobalBuffer((__gm__ T*)src, C);
        for (uint32_t off = 0; off < C; off += L) {
            const uint32_t len = (C - off) < L ? (C - off) : L;
            LocalTensor<T> l = dyQ.template AllocTensor<T>();
            DataCopyPad(l, gm[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            dyQ.EnQue(l);
            l = dyQ.template DeQue<T>();
            ToFloat(dst[off], l, len);
            dyQ.FreeTensor(l);
        }
    }

    __aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
    {
        if constexpr (std::is_same_v<T, float>) {
            Adds(dst, src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline LocalTensor<T> Load(TQue<QuePosition::VECIN, kBuf>& q, GlobalTensor<T>& gm, uint64_t off,
                                          uint32_t r, uint32_t len)
    {
        LocalTensor<T> l = q.template AllocTensor<T>();
        DataCopyPad(l, gm[off], DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(len * sizeof(T)),
                                                  static_cast<uint32_t>((HW - len) * sizeof(T)), 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        q.EnQue(l);
        return q.template DeQue<T>();
    }

    // dz (dzBuf) and xhat (xhBuf) for r rows of stride st (cnt valid-or-padded elements per row).
    __aicore__ inline void Dz(uint64_t off, uint32_t c, uint32_t r, uint32_t len, uint32_t st, float mean, float rstd)
    {
        const uint32_t n = r * st;
        LocalTensor<float> dz = dzBuf.Get<float>();
        LocalTensor<float> xh = xhBuf.Get<float>();
        LocalTensor<float> z = zBuf.Get<float>();
        LocalTensor<float> sig = sigBuf.Get<float>();
        LocalTensor<T> dyL = Load(dyQ, dyGm, off, r, len);
        LocalTensor<T> xL = Load(xQ, xGm, off, r, len);
        ToFloat(dz, dyL, n);
        ToFloat(xh, xL, n);
        dyQ.FreeTensor(dyL);
        xQ.FreeTensor(xL);
        Adds(xh, xh, -mean, n);
        Muls(xh, xh, rstd, n);
        for (uint32_t i = 0; i < r; ++i) {
            Muls(z[i * st], xh[i * st], gammaF.GetValue(c + i) * s, st);   // s * z
            Adds(z[i * st], z[i * st], betaF.GetValue(c + i) * s, st);
        }
        Sigmoid(sig, z, n);
        Mul(dz, dz, sig, n);                // dy * sig
        Muls(sig, sig, -1.0f, n);
        Adds(sig, sig, 1.0f, n);            // 1 - sig
        Mul(z, z, sig, n);                  // s z (1 - sig)
        Adds(z, z, 1.0f, n);
        Mul(dz, dz, z, n);                  // dz
    }

    // Walks group gi tile by tile: pass 1 (PASS1) accumulates, pass 2 writes dx.
    template <bool PASS1>
    __aicore__ inline void Walk(uint64_t gi, float mean, float rstd, float& sumG, float& sumGX)
    {
        const uint64_t base = gi * D;
        const uint32_t c0 = static_cast<uint32_t>(gi % G) * Cg;
        constexpr uint32_t epb = 32 / sizeof(T);
        if (R > 0) {
            const uint32_t st = (HW + epb - 1) / epb * epb;
            for (uint32_t ch = 0; ch < Cg; ch += R) {
                const uint32_t r = (Cg - ch) < R ? (Cg - ch) : R;
                Tile<PASS1>(base + uint64_t(ch) * HW, c0 + ch, r, HW, st, mean, rstd, sumG, sumGX);
            }
        } else {
            for (uint32_t ch = 0; ch < Cg; ++ch) {
                for (uint32_t h = 0; h < HW; h += L) {
                    const uint32_t len = (HW - h) < L ? (HW - h) : L;
                    Tile<PASS1>(base + uint64_t(ch) * HW + h, c0 + ch, 1, len, len, mean, rstd, sumG, sumGX);
                }
            }
        }
    }

    template <bool PASS1>
    __aicore__ inline void Tile(uint64_t off, uint32_t c, uint32_t r, uint32_t len, uint32_t st, float mean, float rstd,
                                float& sumG, float& sumGX)
    {
        Dz(off, c, r, len, st, mean, rstd);
        const uint32_t n = r * st;
        LocalTensor<float> dz = dzBuf.Get<float>();
        LocalTensor<float> xh = xhBuf.Get<float>();
        if constexpr (PASS1) {
            LocalTensor<float> z = zBuf.Get<float>();
            LocalTensor<float> red = redBuf.Get<float>();
            LocalTensor<float> work = workBuf.Get<float>();
            Mul(z, dz, xh, n);
            for (uint32_t i = 0; i < r; ++i) {
                ReduceSum(red[i * kSlot], dz[i * st], work, len);
                ReduceSum(red[(r + i) * kSlot], z[i * st], work, len);
            }
            Sync<HardEvent::V_S>();
            for (uint32_t i = 0; i < r; ++i) {
                const float db = red.GetValue(i * kSlot);
                const float dg = red.GetValue((r + i) * kSlot);
                const float gm = gammaF.GetValue(c + i);
                accB.SetValue(c + i, accB.GetValue(c + i) + db);
                accG.SetValue(c + i, accG.GetValue(c + i) + dg);
                sumG += gm * db;
                sumGX += gm * dg;
            }
        } else {
            // dx = rstd * (dz * gamma - a - xhat * b), a / b the group means of g and g * xhat.
            for (uint32_t i = 0; i < r; ++i) {
                Muls(dz[i * st], dz[i * st], gammaF.GetValue(c + i) * rstd, st);
            }
            Muls(xh, xh, -sumGX * invD * rstd, n);
            Add(dz, dz, xh, n);
            Adds(dz, dz, -sumG * invD * rstd, n);
            LocalTensor<T> o = outQ.template AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                Adds(o, dz, 0.0f, n);
            } else {
                Cast(o, dz, RoundMode::CAST_RINT, n);
            }
            outQ.EnQue(o);
            o = outQ.template DeQue<T>();
            DataCopyPad(dxGm[off], o, DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(len * sizeof(T)),
                                                        0, static_cast<uint32_t>((HW - len) * sizeof(T)), 0});
            outQ.FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kBuf> dyQ, xQ;
    TQue<QuePosition::VECOUT, kBuf> outQ;
    TBuf<QuePosition::VECCALC> dzBuf, xhBuf, zBuf, sigBuf, redBuf, workBuf, paramBuf;
    GlobalTensor<T> dyGm, xGm, dxGm;
    GlobalTensor<float> meanGm, rstdGm, dgammaGm, dbetaGm;
    LocalTensor<float> gammaF, betaF, accG, accB;
    uint32_t G = 1, Cg = 1, C = 1, HW = 1, D = 1, L = 64, R = 0, myGroups = 0;
    uint64_t start = 0;
    float s = 1.0f, invD = 1.0f;
};
}  // namespace

extern "C" __global__ __aicore__ void group_norm_swish_grad(GM_ADDR dy, GM_ADDR mean, GM_ADDR rstd, GM_ADDR x,
                                                            GM_ADDR gamma, GM_ADDR beta, GM_ADDR dx, GM_ADDR dgamma,
                                                            GM_ADDR dbeta, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GroupNormSwishGradKernel<DTYPE_DY> op;
    op.Init(dy, mean, rstd, x, gamma, beta, dx, dgamma, dbeta, tilingData);
    op.Process();
}
