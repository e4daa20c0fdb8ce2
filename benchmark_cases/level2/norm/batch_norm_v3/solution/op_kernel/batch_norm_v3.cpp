// BatchNormV3 on the vector cores. Channels are split over the cores (big cores take one more).
// Channel c is N rows of HW elements, C*HW elements apart in GM: one strided DataCopyPad moves up to
// rowsPerTile rows of it (every row 32-byte aligned in UB), rows longer than a tile go in chunks.
//   training, pass 1: shifted sums sum(x - s), sum((x - s)^2) (s = x[0, c, 0]) accumulated per tile;
//                     the row padding is filled with s itself, so it adds exactly 0 and whole tiles
//                     reduce in one ReduceSum;
//   pass 2:           y = x * scale + bias with scale = rstd * weight[c], bias = bias[c] - mean * scale.
// Per-channel parameters and outputs live in UB as float32 for the whole run and leave at the end
// with one copy per output. Queues are double-buffered so MTE2 / V / MTE3 overlap.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t kBuf = 2;
constexpr uint32_t kSlot = 8;

template <typename T>
class BatchNormKernel {
public:
    __aicore__ inline BatchNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR rmean, GM_ADDR rvar, GM_ADDR y,
                                GM_ADDR rmeanOut, GM_ADDR rvarOut, GM_ADDR saveMean, GM_ADDR saveRstd,
                                const BatchNormV3TilingData& t)
    {
        N = t.batch;
        C = t.channels;
        HW = t.hw;
        L = t.tileLen;
        R = t.rowsPerTile;
        training = t.training != 0;
        eps = t.epsilon;
        momentum = t.momentum;
        invCount = t.invCount;
        bessel = t.bessel;
        const uint32_t idx = GetBlockIdx();
        myCh = t.chPerCore + (idx < t.bigCoreNum ? 1 : 0);
        c0 = idx * t.chPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        xGm.SetGlobalBuffer((__gm__ T*)x);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        const uint32_t nb = t.bufNum;
        pipe.InitBuffer(inQ, nb, L * sizeof(T));
        pipe.InitBuffer(outQ, nb, L * sizeof(T));
        pipe.InitBuffer(xBuf, L * sizeof(float));
        pipe.InitBuffer(tmpBuf, L * sizeof(float));
        pipe.InitBuffer(workBuf, (L / 64 + kSlot) * sizeof(float));
        pipe.InitBuffer(slotBuf, 8 * kSlot * sizeof(float));
        const uint32_t maxCh = t.chPerCore + (t.bigCoreNum > 0 ? 1 : 0);
        A = (maxCh + 7) / 8 * 8;
        pipe.InitBuffer(paramBuf, 8 * A * sizeof(float));
        LocalTensor<float> p = paramBuf.Get<float>();
        wF = p;
        bF = p[A];
        rmF = p[2 * A];
        rvF = p[3 * A];
        rmOutF = p[4 * A];
        rvOutF = p[5 * A];
        meanF = p[6 * A];
        rstdF = p[7 * A];
        LoadVec<T>(weight, wF);
        LoadVec<T>(bias, bF);
        LoadVec<float>(rmean, rmF);
        LoadVec<float>(rvar, rvF);
        if (!training) {
            // Inference: every channel's statistics are known up front, rstd in one vector pass.
            Adds(meanF, rmF, 0.0f, myCh);
            Adds(rstdF, rvF, eps, myCh);
            Sqrt(rstdF, rstdF, myCh);
            Duplicate(rmOutF, 1.0f, myCh);
            Div(rstdF, rmOutF, rstdF, myCh);
            Adds(rmOutF, rmF, 0.0f, myCh);
            Adds(rvOutF, rvF, 0.0f, myCh);
        } else {
            LocalTensor<float> slots = slotBuf.Get<float>();
            Duplicate(slots[4 * kSlot], 1.0f, kSlot);
        }
        WaitVector();
        outs[0] = rmeanOut;
        outs[1] = rvarOut;
        outs[2] = saveMean;
        outs[3] = saveRstd;
    }

    __aicore__ inline void Process()
    {
        for (uint32_t k = 0; k < myCh; ++k) {
            const uint32_t ch = c0 + k;
            float mean;
            float rstd;
            if (training) {
                float var = 0.0f;
                Statistics(ch, mean, var, rstd);
                meanF.SetValue(k, mean);
                rstdF.SetValue(k, rstd);
                rmOutF.SetValue(k, (1.0f - momentum) * rmF.GetValue(k) + momentum * mean);
                rvOutF.SetValue(k, (1.0f - momentum) * rvF.GetValue(k) + momentum * var * bessel);
            } else {
                mean = meanF.GetValue(k);
                rstd = rstdF.GetValue(k);
            }
            const float scale = rstd * wF.GetValue(k);
            Normalize(ch, scale, bF.GetValue(k) - mean * scale);
        }
        if (myCh == 0) {
            return;
        }
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        LocalTensor<float> vecs[4] = {rmOutF, rvOutF, meanF, rstdF};
        for (uint32_t i = 0; i < 4; ++i) {
            GlobalTensor<float> gm;
            gm.SetGlobalBuffer((__gm__ float*)outs[i] + c0, myCh);
            DataCopyPad(gm, vecs[i], DataCopyExtParams{1, static_cast<uint32_t>(myCh * sizeof(float)), 0, 0, 0});
        }
    }

private:
    __aicore__ inline void WaitVector()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    // This core's myCh elements of a per-channel GM vector -> float32 UB, through the input queue.
    template <typename U>
    __aicore__ inline void LoadVec(GM_ADDR src, const LocalTensor<float>& dst)
    {
        GlobalTensor<U> gm;
        gm.SetGlobalBuffer((__gm__ U*)src + c0, myCh);
        const uint32_t chunk = L * sizeof(T) / sizeof(U);
        for (uint32_t off = 0; off < myCh; off += chunk) {
            const uint32_t len = (myCh - off) < chunk ? (myCh - off) : chunk;
            LocalTensor<U> l = inQ.template AllocTensor<U>();
            DataCopyPad(l, gm[off], DataCopyExtParams{1, static_cast<uint32_t>(len * sizeof(U)), 0, 0, 0},
                        DataCopyPadExtParams<U>{false, 0, 0, 0});
            inQ.EnQue(l);
            l = inQ.template DeQue<U>();
            if constexpr (std::is_same_v<U, float>) {
                Adds(dst[off], l, 0.0f, len);
            } else {
                Cast(dst[off], l, RoundMode::CAST_NONE, len);
            }
            inQ.FreeTensor(l);
        }
    }

    // Loads r rows (or one chunk when r == 1 and len < HW) of channel ch starting at sample n, column h.
    __aicore__ inline LocalTensor<T> Load(uint32_t ch, uint32_t n, uint32_t h, uint32_t r, uint32_t len, bool pad,
                                          T padValue)
    {
        constexpr uint32_t epb = 32 / sizeof(T);
        const uint32_t s = (len + epb - 1) / epb * epb;
        const uint32_t gap = static_cast<uint32_t>((uint64_t(C) * HW - len) * sizeof(T));
        LocalTensor<T> l = inQ.template AllocTensor<T>();
        DataCopyPad(l, xGm[(uint64_t(n) * C + ch) * HW + h],
                    DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(len * sizeof(T)), gap, 0, 0},
                    DataCopyPadExtParams<T>{pad, 0, static_cast<uint8_t>(pad ? s - len : 0), padValue});
        inQ.EnQue(l);
        return inQ.template DeQue<T>();
    }

    __aicore__ inline void Accumulate(LocalTensor<T> l, uint32_t n, bool first, float& shift)
    {
        LocalTensor<float> slots = slotBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> xf;
        if constexpr (std::is_same_v<T, float>) {
            xf = l;
        } else {
            xf = xBuf.Get<float>();
            Cast(xf, l, RoundMode::CAST_NONE, n);
        }
        if (first) {
            WaitVector();
            shift = xf.GetValue(0);
        }
        Adds(xf, xf, -shift, n);
        ReduceSum(slots[2 * kSlot], xf, work, n);
        Mul(tmp, xf, xf, n);
        ReduceSum(slots[3 * kSlot], tmp, work, n);
        Add(slots, slots, slots[2 * kSlot], 1);
        Add(slots[kSlot], slots[kSlot], slots[3 * kSlot], 1);
        inQ.FreeTensor(l);
    }

    // Pass 1 (training): batch mean, biased variance and rstd of channel ch.
    __aicore__ inline void Statistics(uint32_t ch, float& mean, float& var, float& rstd)
    {
        LocalTensor<float> slots = slotBuf.Get<float>();
        Duplicate(slots, 0.0f, 2 * kSlot);
        const T first = xGm.GetValue(uint64_t(ch) * HW);  // pads the rows: contributes 0 after the shift
        float shift = 0.0f;
        constexpr uint32_t epb = 32 / sizeof(T);
        if (R > 0) {
            const uint32_t s = (HW + epb - 1) / epb * epb;
            for (uint32_t n = 0; n < N; n += R) {
                const uint32_t r = (N - n) < R ? (N - n) : R;
                Accumulate(Load(ch, n, 0, r, HW, true, first), r * s, n == 0, shift);
            }
        } else {
            for (uint32_t n = 0; n < N; ++n) {
                for (uint32_t h = 0; h < HW; h += L) {
                    const uint32_t len = (HW - h) < L ? (HW - h) : L;
                    Accumulate(Load(ch, n, h, 1, len, false, first), len, n == 0 && h == 0, shift);
                }
            }
        }
        LocalTensor<float> ones = slots[4 * kSlot];
        LocalTensor<float> m = slots[5 * kSlot];
        LocalTensor<float> v = slots[6 * kSlot];
        LocalTensor<float> r = slots[7 * kSlot];
        Muls(m, slots, invCount, 1);
        Mul(r, m, m, 1);
        Muls(v, slots[kSlot], invCount, 1);
        Sub(v, v, r, 1);
        Maxs(v, v, 0.0f, 1);
        Adds(r, v, eps, 1);
        Sqrt(r, r, 1);
        Div(r, ones, r, 1);
        WaitVector();
        mean = shift + m.GetValue(0);
        var = v.GetValue(0);
        rstd = r.GetValue(0);
    }

    __aicore__ inline void Store(uint32_t ch, uint32_t n, uint32_t h, uint32_t r, uint32_t len, LocalTensor<T> in,
                                 uint32_t cnt, float scale, float bias)
    {
        LocalTensor<T> o = outQ.template AllocTensor<T>();
        if constexpr (std::is_same_v<T, float>) {
            Muls(o, in, scale, cnt);
            Adds(o, o, bias, cnt);
        } else {
            LocalTensor<float> xf = xBuf.Get<float>();
            Cast(xf, in, RoundMode::CAST_NONE, cnt);
            Muls(xf, xf, scale, cnt);
            Adds(xf, xf, bias, cnt);
            Cast(o, xf, RoundMode::CAST_RINT, cnt);
        }
        inQ.FreeTensor(in);
        outQ.EnQue(o);
        o = outQ.template DeQue<T>();
        const uint32_t gap = static_cast<uint32_t>((uint64_t(C) * HW - len) * sizeof(T));
        DataCopyPad(yGm[(uint64_t(n) * C + ch) * HW + h], o,
                    DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(len * sizeof(T)), 0, gap, 0});
        outQ.FreeTensor(o);
    }

    // Pass 2: y = x * scale + bias over channel ch.
    __aicore__ inline void Normalize(uint32_t ch, float scale, float bias)
    {
        constexpr uint32_t epb = 32 / sizeof(T);
        const T zero = T(0);
        if (R > 0) {
            const uint32_t s = (HW + epb - 1) / epb * epb;
            for (uint32_t n = 0; n < N; n += R) {
                const uint32_t r = (N - n) < R ? (N - n) : R;
                Store(ch, n, 0, r, HW, Load(ch, n, 0, r, HW, false, zero), r * s, scale, bias);
            }
        } else {
            for (uint32_t n = 0; n < N; ++n) {
                for (uint32_t h = 0; h < HW; h += L) {
                    const uint32_t len = (HW - h) < L ? (HW - h) : L;
                    Store(ch, n, h, 1, len, Load(ch, n, h, 1, len, false, zero), len, scale, bias);
                }
            }
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kBuf> inQ;
    TQue<QuePosition::VECOUT, kBuf> outQ;
    TBuf<QuePosition::VECCALC> xBuf, tmpBuf, workBuf, slotBuf, paramBuf;
    GlobalTensor<T> xGm, yGm;
    LocalTensor<float> wF, bF, rmF, rvF, rmOutF, rvOutF, meanF, rstdF;
    GM_ADDR outs[4];
    uint32_t N = 1, C = 1, HW = 1, L = 64, R = 0, A = 8, myCh = 0, c0 = 0;
    float eps = 1e-5f, momentum = 0.1f, invCount = 1.0f, bessel = 1.0f;
    bool training = true;
};
}  // namespace

extern "C" __global__ __aicore__ void batch_norm_v3(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR running_mean,
                                                    GM_ADDR running_var, GM_ADDR y, GM_ADDR running_mean_out,
                                                    GM_ADDR running_var_out, GM_ADDR save_mean, GM_ADDR save_rstd,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    BatchNormKernel<DTYPE_X> op;
    op.Init(x, weight, bias, running_mean, running_var, y, running_mean_out, running_var_out, save_mean, save_rstd,
            tilingData);
    op.Process();
}
