// norm_grad_kernel.h -- kernel base shared by the level-2 normalization backward solutions
// (RmsNormGrad, AddLayerNormGrad, DeepNormGrad).
//
// Rows of D elements are independent for dx; dgamma / dbeta sum over every row, so they need a
// cross-core reduction. The host (row_norm_tiling.h) splits the rows over the vector cores (big
// cores take one extra row) and sizes the tile height from the UB size. Per core:
//   init:  core 0 zeroes dgamma / dbeta in GM, then SyncAll so no core adds into poison;
//   tiles: one DataCopyPad per input (r rows, each 32-byte aligned in UB) plus the r per-row
//          statistics (one 32-byte slot each); float32 math on the whole tile:
//            xhat = (s - mean) * rstd            (LAYER)   |  s * rstd   (RMS)
//            g    = dy * gamma
//            ds   = rstd * (g - mean(g) - xhat * mean(g * xhat))   (mean(g) only for LAYER)
//          partial dgamma += dy * xhat, dbeta += dy kept in UB for the whole run;
//   end:   the partial sums leave with SetAtomicAdd (one D-vector per core).
#ifndef NORM_GRAD_KERNEL_H
#define NORM_GRAD_KERNEL_H

#include "kernel_operator.h"

namespace norm_grad_kernels {
using namespace AscendC;

enum class GradPre : int {
    X = 0,         // s = in0
    ADD = 1,       // s = in0 + in1                 (AddLayerNormGrad)
    SCALE_ADD = 2  // s = alpha * in0 + in1         (DeepNormGrad: dx = alpha * ds, dgx = ds)
};
enum class GradNorm : int { RMS = 0, LAYER = 1 };

constexpr int32_t kGradBuf = 2;
constexpr uint32_t kGradSlot = 8;  // floats per 32-byte statistics slot

struct NormGradArgs {
    GM_ADDR dy = nullptr;      // T
    GM_ADDR in0 = nullptr;     // T
    GM_ADDR in1 = nullptr;     // T
    GM_ADDR mean = nullptr;    // float32 per row (LAYER)
    GM_ADDR rstd = nullptr;    // float32 per row
    GM_ADDR gamma = nullptr;   // T
    GM_ADDR dsum = nullptr;    // T, added to dx (AddLayerNormGrad)
    GM_ADDR dx = nullptr;      // T: ds (+ dsum), or alpha * ds for SCALE_ADD
    GM_ADDR dgx = nullptr;     // T: ds (SCALE_ADD)
    GM_ADDR dgamma = nullptr;  // float32 [D]
    GM_ADDR dbeta = nullptr;   // float32 [D]
};

template <typename T, GradPre PRE, GradNorm NORM>
class NormGrad {
public:
    __aicore__ inline NormGrad() {}

    template <typename TD>
    __aicore__ inline void Init(const NormGradArgs& a, const TD& t)
    {
        D = t.colLen;
        S = t.rowStride;
        R = t.rowsPerTile;
        alpha = t.alpha;
        invD = t.invColLen;
        args = a;
        const uint32_t idx = GetBlockIdx();
        const uint32_t big = t.bigCoreNum;
        myRows = t.rowsPerCore + (idx < big ? 1 : 0);
        const uint64_t start = uint64_t(idx) * t.rowsPerCore + (idx < big ? idx : big);
        const uint64_t off = start * D;
        const uint32_t nb = t.bufNum;
        const uint32_t rowBytes = R * S * sizeof(T);
        GM_ADDR ins[2] = {a.in0, a.in1};
        nIn = PRE == GradPre::X ? 1 : 2;
        dyGm.SetGlobalBuffer((__gm__ T*)a.dy + off, uint64_t(myRows) * D);
        pipe.InitBuffer(dyQ, nb, rowBytes);
        for (uint32_t k = 0; k < nIn; ++k) {
            inGm[k].SetGlobalBuffer((__gm__ T*)ins[k] + off, uint64_t(myRows) * D);
            pipe.InitBuffer(inQ[k], nb, rowBytes);
        }
        if (a.dsum != nullptr) {
            dsumGm.SetGlobalBuffer((__gm__ T*)a.dsum + off, uint64_t(myRows) * D);
            pipe.InitBuffer(dsumQ, nb, rowBytes);
        }
        rstdGm.SetGlobalBuffer((__gm__ float*)a.rstd + start, myRows);
        if constexpr (NORM == GradNorm::LAYER) {
            meanGm.SetGlobalBuffer((__gm__ float*)a.mean + start, myRows);
        }
        pipe.InitBuffer(statQ, nb, 2 * R * kGradSlot * sizeof(float));
        dxGm.SetGlobalBuffer((__gm__ T*)a.dx + off, uint64_t(myRows) * D);
        pipe.InitBuffer(dxQ, nb, rowBytes);
        if (a.dgx != nullptr) {
            dgxGm.SetGlobalBuffer((__gm__ T*)a.dgx + off, uint64_t(myRows) * D);
            pipe.InitBuffer(dgxQ, nb, rowBytes);
        }
        pipe.InitBuffer(sBuf, R * S * sizeof(float));
        pipe.InitBuffer(gBuf, R * S * sizeof(float));
        pipe.InitBuffer(tmpBuf, R * S * sizeof(float));
        pipe.InitBuffer(redBuf, 2 * R * kGradSlot * sizeof(float));
        pipe.InitBuffer(paramBuf, 4 * S * sizeof(float));
        LocalTensor<float> base = paramBuf.Get<float>();
        work = base;
        gammaF = base[S];
        accG = base[2 * S];
        accB = base[3 * S];
        LoadGamma();
        Duplicate(accG, 0.0f, S);
        Duplicate(accB, 0.0f, S);
        dgammaGm.SetGlobalBuffer((__gm__ float*)a.dgamma, D);
        if (a.dbeta != nullptr) {
            dbetaGm.SetGlobalBuffer((__gm__ float*)a.dbeta, D);
        }
        if (idx == 0) {  // zero the atomically accumulated outputs once, before any core adds
            SyncPipes<HardEvent::V_MTE3>();
            DataCopyExtParams p{1, static_cast<uint32_t>(D * sizeof(float)), 0, 0, 0};
            DataCopyPad(dgammaGm, accG, p);
            if (a.dbeta != nullptr) {
                DataCopyPad(dbetaGm, accB, p);
            }
            SyncPipes<HardEvent::MTE3_V>();
        }
        SyncAll();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < myRows; row += R) {
            const uint32_t r = (myRows - row) < R ? (myRows - row) : R;
            CopyIn(row, r);
            Compute(r);
            CopyOut(row, r);
        }
        if (myRows == 0) {
            return;
        }
        SyncPipes<HardEvent::V_MTE3>();
        DataCopyExtParams p{1, static_cast<uint32_t>(D * sizeof(float)), 0, 0, 0};
        SetAtomicAdd<float>();
        DataCopyPad(dgammaGm, accG, p);
        if (args.dbeta != nullptr) {
            DataCopyPad(dbetaGm, accB, p);
        }
        SetAtomicNone();
    }

private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void LoadGamma()
    {
        GlobalTensor<T> gm;
        gm.SetGlobalBuffer((__gm__ T*)args.gamma, D);
        DataCopyExtParams p{1, static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        if constexpr (std::is_same_v<T, float>) {
            DataCopyPad(gammaF, gm, p, pad);
            SyncPipes<HardEvent::MTE2_V>();
        } else {
            LocalTensor<T> stage = tmpBuf.Get<T>();
            DataCopyPad(stage, gm, p, pad);
            SyncPipes<HardEvent::MTE2_V>();
            Cast(gammaF, stage, RoundMode::CAST_NONE, D);
        }
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t r)
    {
        const uint64_t off = uint64_t(row) * D;
        DataCopyExtParams p{static_cast<uint16_t>(r), static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        LocalTensor<T> l = dyQ.template AllocTensor<T>();
        DataCopyPad(l, dyGm[off], p, pad);
        dyQ.EnQue(l);
        for (uint32_t k = 0; k < nIn; ++k) {
            LocalTensor<T> v = inQ[k].template AllocTensor<T>();
            DataCopyPad(v, inGm[k][off], p, pad);
            inQ[k].EnQue(v);
        }
        if (args.dsum != nullptr) {
            LocalTensor<T> v = dsumQ.template AllocTensor<T>();
            DataCopyPad(v, dsumGm[off], p, pad);
            dsumQ.EnQue(v);
        }
        // One 4-byte value per row, each landing in its own 32-byte slot.
        DataCopyExtParams sp{static_cast<uint16_t>(r), sizeof(float), 0, 0, 0};
        DataCopyPadExtParams<float> fpad{false, 0, 0, 0};
        LocalTensor<float> st = statQ.template AllocTensor<float>();
        if constexpr (NORM == GradNorm::LAYER) {
            DataCopyPad(st, meanGm[row], sp, fpad);
        }
        DataCopyPad(st[R * kGradSlot], rstdGm[row], sp, fpad);
        statQ.EnQue(st);
    }

    // dst (float32) <- src (T): a cast for narrow dtypes, a copy for float32.
    __aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<T>& src, uint32_t n)
    {
        if constexpr (std::is_same_v<T, float>) {
            Adds(dst, src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
    }

    __aicore__ inline void FromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n)
    {
        if constexpr (std::is_same_v<T, float>) {
            Adds(dst, src, 0.0f, n);
        } else {
            Cast(dst, src, RoundMode::CAST_RINT, n);
        }
    }

    __aicore__ inline void Compute(uint32_t r)
    {
        const uint32_t n = r * S;
        LocalTensor<float> s = sBuf.Get<float>();
        LocalTensor<float> g = gBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<T> dyT = dyQ.template DeQue<T>();
        LocalTensor<float> st = statQ.template DeQue<float>();
        SyncPipes<HardEvent::MTE2_S>();  // the statistics are read by the scalar unit

        // s = PRE(inputs) in float32, then xhat in place.
        LocalTensor<T> in0 = inQ[0].template DeQue<T>();
        ToFloat(s, in0, n);
        inQ[0].FreeTensor(in0);
        if constexpr (PRE != GradPre::X) {
            LocalTensor<T> in1 = inQ[1].template DeQue<T>();
            if constexpr (PRE == GradPre::SCALE_ADD) {
                Muls(s, s, alpha, n);
            }
            ToFloat(tmp, in1, n);
            Add(s, s, tmp, n);
            inQ[1].FreeTensor(in1);
        }
        for (uint32_t i = 0; i < r; ++i) {
            const float rs = st.GetValue(R * kGradSlot + i * kGradSlot);
            if constexpr (NORM == GradNorm::LAYER) {
                Adds(s[i * S], s[i * S], -st.GetValue(i * kGradSlot), D);
            }
            Muls(s[i * S], s[i * S], rs, D);
        }

        // Parameter gradients: partial sums over this core's rows.
        ToFloat(g, dyT, n);
        dyQ.FreeTensor(dyT);
        Mul(tmp, g, s, n);
        for (uint32_t i = 0; i < r; ++i) {
            Add(accG, accG, tmp[i * S], D);
            if (args.dbeta != nullptr) {
                Add(accB, accB, g[i * S], D);
            }
            Mul(g[i * S], g[i * S], gammaF, D);  // g = dy * gamma
        }

        // Row means of g * xhat (and of g for LAYER).
        Mul(tmp, g, s, n);
        for (uint32_t i = 0; i < r; ++i) {
            ReduceSum(red[i * kGradSlot], tmp[i * S], work, D);
            if constexpr (NORM == GradNorm::LAYER) {
                ReduceSum(red[(R + i) * kGradSlot], g[i * S], work, D);
            }
        }
        Muls(red, red, invD, 2 * R * kGradSlot);
        SyncPipes<HardEvent::V_S>();
        for (uint32_t i = 0; i < r; ++i) {
            const float c2 = red.GetValue(i * kGradSlot);
            const float rs = st.GetValue(R * kGradSlot + i * kGradSlot);
            Muls(tmp[i * S], s[i * S], -c2, D);
            Add(tmp[i * S], tmp[i * S], g[i * S], D);
            if constexpr (NORM == GradNorm::LAYER) {
                Adds(tmp[i * S], tmp[i * S], -red.GetValue((R + i) * kGradSlot), D);
            }
            Muls(tmp[i * S], tmp[i * S], rs, D);
        }
        statQ.FreeTensor(st);

        // Outputs.
        if (args.dgx != nullptr) {
            LocalTensor<T> o = dgxQ.template AllocTensor<T>();
            FromFloat(o, tmp, n);
            dgxQ.EnQue(o);
        }
        if constexpr (PRE == GradPre::SCALE_ADD) {
            Muls(tmp, tmp, alpha, n);
        }
        if (args.dsum != nullptr) {
            LocalTensor<T> ds = dsumQ.template DeQue<T>();
            ToFloat(g, ds, n);
            dsumQ.FreeTensor(ds);
            Add(tmp, tmp, g, n);
        }
        LocalTensor<T> o = dxQ.template AllocTensor<T>();
        FromFloat(o, tmp, n);
        dxQ.EnQue(o);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        const uint64_t off = uint64_t(row) * D;
        DataCopyExtParams p{static_cast<uint16_t>(r), static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        LocalTensor<T> o = dxQ.template DeQue<T>();
        DataCopyPad(dxGm[off], o, p);
        dxQ.FreeTensor(o);
        if (args.dgx != nullptr) {
            LocalTensor<T> v = dgxQ.template DeQue<T>();
            DataCopyPad(dgxGm[off], v, p);
            dgxQ.FreeTensor(v);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kGradBuf> dyQ, inQ[2], dsumQ, statQ;
    TQue<QuePosition::VECOUT, kGradBuf> dxQ, dgxQ;
    TBuf<QuePosition::VECCALC> sBuf, gBuf, tmpBuf, redBuf, paramBuf;
    GlobalTensor<T> dyGm, inGm[2], dsumGm, dxGm, dgxGm;
    GlobalTensor<float> meanGm, rstdGm, dgammaGm, dbetaGm;
    LocalTensor<float> work, gammaF, accG, accB;
    NormGradArgs args;
    uint32_t D = 0, S = 0, R = 1, myRows = 0, nIn = 1;
    float alpha = 1.0f, invD = 1.0f;
};
}  // namespace norm_grad_kernels

#endif  // NORM_GRAD_KERNEL_H
