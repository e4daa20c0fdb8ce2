// row_norm_kernel.h -- kernel base shared by the level-2 row-normalization solutions (RmsNorm,
// AddRmsNorm, AddRmsNormCast, AddRmsNormQuant, InplaceAddRmsNorm, LayerNormV4, AddLayerNorm,
// PreLayerNorm, DeepNorm, InplaceAddLayerNorm, MulMulReduceMeanDTwice).
//
// Every row of D elements is normalized on its own. The host (row_norm_tiling.h) splits the rows
// over the vector cores (big cores take one extra row) and picks the tile height from the UB size.
// Per tile of r rows:
//   MTE2: one DataCopyPad per input (blockCount = r, every row lands 32-byte aligned in UB)
//   V:    x = PRE(inputs) in float32; statistics per row with ReduceSum; rstd for the whole tile at
//         once (Sqrt + Div on one 32-byte slot per row); y = (x - mean) * rstd * gamma + beta
//   MTE3: one DataCopyPad per output; mean/rstd leave from their 32-byte slots as r 4-byte blocks.
// Queues are double-buffered when the tiling found room for it, so copies overlap compute.
#ifndef ROW_NORM_KERNEL_H
#define ROW_NORM_KERNEL_H

#include "kernel_operator.h"

namespace row_norm_kernels {
using namespace AscendC;

enum class Pre : int {
    X = 0,          // x = in0
    ADD = 1,        // x = in0 + in1
    SCALE_ADD = 2,  // x = alpha * in0 + in1            (DeepNorm)
    MUL3 = 3        // x = in0 * in1 * in2              (MulMulReduceMeanDTwice)
};
enum class Norm : int { RMS = 0, LAYER = 1 };

constexpr int32_t kMaxBuf = 2;
constexpr uint32_t kSlot = 8;  // floats per 32-byte statistics slot

// GM addresses of one call; nullptr = that input is absent / that output is not produced.
struct RowNormArgs {
    GM_ADDR in0 = nullptr;
    GM_ADDR in1 = nullptr;
    GM_ADDR in2 = nullptr;
    GM_ADDR gamma = nullptr;   // dtype TP
    GM_ADDR beta = nullptr;    // dtype TP
    GM_ADDR scale = nullptr;   // float32 (quantization)
    GM_ADDR offset = nullptr;  // float32 (quantization)
    GM_ADDR y = nullptr;       // T
    GM_ADDR y32 = nullptr;     // float32 copy of y
    GM_ADDR yq = nullptr;      // int8
    GM_ADDR mean = nullptr;    // float32, one per row
    GM_ADDR rstd = nullptr;    // float32, one per row
    GM_ADDR xsum = nullptr;    // T: the pre-op result x
};

template <typename T, Pre PRE, Norm NORM, typename TP = T>
class RowNorm {
public:
    __aicore__ inline RowNorm() {}

    template <typename TD>
    __aicore__ inline void Init(const RowNormArgs& a, const TD& t)
    {
        D = t.colLen;
        S = t.rowStride;
        S8 = (D + 31) / 32 * 32;
        R = t.rowsPerTile;
        eps = t.epsilon;
        alpha = t.alpha;
        invD = t.invColLen;
        const uint32_t idx = GetBlockIdx();
        const uint32_t big = t.bigCoreNum;
        myRows = t.rowsPerCore + (idx < big ? 1 : 0);
        const uint64_t start = uint64_t(idx) * t.rowsPerCore + (idx < big ? idx : big);
        const uint64_t off = start * D;
        args = a;
        nIn = PRE == Pre::X ? 1 : (PRE == Pre::MUL3 ? 3 : 2);
        GM_ADDR ins[3] = {a.in0, a.in1, a.in2};
        const uint32_t nb = t.bufNum;
        for (uint32_t k = 0; k < nIn; ++k) {
            inGm[k].SetGlobalBuffer((__gm__ T*)ins[k] + off, uint64_t(myRows) * D);
            pipe.InitBuffer(inQ[k], nb, R * S * sizeof(T));
        }
        if (a.y != nullptr) {
            yGm.SetGlobalBuffer((__gm__ T*)a.y + off, uint64_t(myRows) * D);
            pipe.InitBuffer(yQ, nb, R * S * sizeof(T));
        }
        if (a.y32 != nullptr) {
            y32Gm.SetGlobalBuffer((__gm__ float*)a.y32 + off, uint64_t(myRows) * D);
            pipe.InitBuffer(y32Q, nb, R * S * sizeof(float));
        }
        if (a.yq != nullptr) {
            yqGm.SetGlobalBuffer((__gm__ int8_t*)a.yq + off, uint64_t(myRows) * D);
            pipe.InitBuffer(yqQ, nb, R * S8);
        }
        if (a.xsum != nullptr) {
            xGm.SetGlobalBuffer((__gm__ T*)a.xsum + off, uint64_t(myRows) * D);
            pipe.InitBuffer(xQ, nb, R * S * sizeof(T));
        }
        if (a.mean != nullptr) {
            meanGm.SetGlobalBuffer((__gm__ float*)a.mean + start, myRows);
        }
        if (a.rstd != nullptr) {
            rstdGm.SetGlobalBuffer((__gm__ float*)a.rstd + start, myRows);
        }
        pipe.InitBuffer(statQ, nb, 2 * R * kSlot * sizeof(float));
        pipe.InitBuffer(xBuf, R * S * sizeof(float));
        pipe.InitBuffer(tmpBuf, R * S * sizeof(float));
        pipe.InitBuffer(redBuf, 3 * R * kSlot * sizeof(float));
        nParams = 0;
        GM_ADDR params[4] = {a.gamma, a.beta, a.scale, a.offset};
        for (uint32_t k = 0; k < 4; ++k) {
            nParams += params[k] != nullptr ? 1 : 0;
        }
        pipe.InitBuffer(paramBuf, (nParams + 1) * S * sizeof(float));
        LoadParams();
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < myRows; row += R) {
            const uint32_t r = (myRows - row) < R ? (myRows - row) : R;
            CopyIn(row, r);
            Compute(r);
            CopyOut(row, r);
        }
    }

private:
    __aicore__ inline void LoadParams()
    {
        LocalTensor<float> base = paramBuf.Get<float>();
        work = base;  // ReduceSum work area: the first S floats
        uint32_t slot = 1;
        if (args.gamma != nullptr) {
            gammaF = base[slot++ * S];
            LoadVector<TP>(args.gamma, gammaF);
        }
        if (args.beta != nullptr) {
            betaF = base[slot++ * S];
            LoadVector<TP>(args.beta, betaF);
        }
        if (args.scale != nullptr) {
            scaleF = base[slot++ * S];
            LoadVector<float>(args.scale, scaleF);
        }
        if (args.offset != nullptr) {
            offsetF = base[slot++ * S];
            LoadVector<float>(args.offset, offsetF);
        }
    }

    // GM vector of D elements -> float32 UB vector (staged through the tmp buffer for narrow dtypes).
    template <typename U>
    __aicore__ inline void LoadVector(GM_ADDR src, const LocalTensor<float>& dst)
    {
        GlobalTensor<U> gm;
        gm.SetGlobalBuffer((__gm__ U*)src, D);
        DataCopyExtParams p{1, static_cast<uint32_t>(D * sizeof(U)), 0, 0, 0};
        DataCopyPadExtParams<U> pad{false, 0, 0, 0};
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
        if constexpr (std::is_same_v<U, float>) {
            DataCopyPad(dst, gm, p, pad);
            SetFlag<HardEvent::MTE2_V>(ev);
            WaitFlag<HardEvent::MTE2_V>(ev);
        } else {
            LocalTensor<U> stage = tmpBuf.Get<U>();
            DataCopyPad(stage, gm, p, pad);
            SetFlag<HardEvent::MTE2_V>(ev);
            WaitFlag<HardEvent::MTE2_V>(ev);
            Cast(dst, stage, RoundMode::CAST_NONE, D);
        }
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t r)
    {
        DataCopyExtParams p{static_cast<uint16_t>(r), static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t k = 0; k < nIn; ++k) {
            LocalTensor<T> l = inQ[k].template AllocTensor<T>();
            DataCopyPad(l, inGm[k][uint64_t(row) * D], p, pad);
            inQ[k].EnQue(l);
        }
    }

    // Forms x (float32, r rows of stride S) from the inputs; returns the tensor that holds it.
    __aicore__ inline LocalTensor<float> FormX(uint32_t n, LocalTensor<T>* in)
    {
        LocalTensor<float> x = xBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            if constexpr (PRE == Pre::X) {
                return in[0];
            } else if constexpr (PRE == Pre::ADD) {
                Add(x, in[0], in[1], n);
            } else if constexpr (PRE == Pre::SCALE_ADD) {
                Muls(x, in[0], alpha, n);
                Add(x, x, in[1], n);
            } else {
                Mul(x, in[0], in[1], n);
                Mul(x, x, in[2], n);
            }
        } else {
            Cast(x, in[0], RoundMode::CAST_NONE, n);
            if constexpr (PRE == Pre::ADD) {
                Cast(tmp, in[1], RoundMode::CAST_NONE, n);
                Add(x, x, tmp, n);
            } else if constexpr (PRE == Pre::SCALE_ADD) {
                Cast(tmp, in[1], RoundMode::CAST_NONE, n);
                Muls(x, x, alpha, n);
                Add(x, x, tmp, n);
            } else if constexpr (PRE == Pre::MUL3) {
                Cast(tmp, in[1], RoundMode::CAST_NONE, n);
                Mul(x, x, tmp, n);
                Cast(tmp, in[2], RoundMode::CAST_NONE, n);
                Mul(x, x, tmp, n);
            }
        }
        return x;
    }

    __aicore__ inline void WaitVectorToScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline void Compute(uint32_t r)
    {
        const uint32_t n = r * S;
        LocalTensor<T> in[3];
        for (uint32_t k = 0; k < nIn; ++k) {
            in[k] = inQ[k].template DeQue<T>();
        }
        LocalTensor<float> x = FormX(n, in);
        constexpr bool xIsInput = std::is_same_v<T, float> && PRE == Pre::X;
        if constexpr (!xIsInput) {
            for (uint32_t k = 0; k < nIn; ++k) {
                inQ[k].FreeTensor(in[k]);
            }
        }
        if (args.xsum != nullptr) {
            LocalTensor<T> xo = xQ.template AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                Adds(xo, x, 0.0f, n);
            } else {
                Cast(xo, x, RoundMode::CAST_RINT, n);
            }
            xQ.EnQue(xo);
        }

        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        LocalTensor<float> sq = red[R * kSlot];
        LocalTensor<float> ones = red[2 * R * kSlot];
        LocalTensor<float> stat = statQ.template AllocTensor<float>();
        LocalTensor<float> meanOut = stat;
        LocalTensor<float> rstdOut = stat[R * kSlot];
        const uint32_t ns = r * kSlot;
        if constexpr (NORM == Norm::LAYER) {
            for (uint32_t i = 0; i < r; ++i) {
                ReduceSum(red[i * kSlot], x[i * S], work, D);
            }
            Muls(meanOut, red, invD, ns);
            WaitVectorToScalar();
            for (uint32_t i = 0; i < r; ++i) {
                const float m = meanOut.GetValue(i * kSlot);
                Adds(x[i * S], x[i * S], -m, D);
            }
        }
        Mul(tmp, x, x, n);
        for (uint32_t i = 0; i < r; ++i) {
            ReduceSum(sq[i * kSlot], tmp[i * S], work, D);
        }
        // rstd = 1 / sqrt(sum / D + eps), one slot per row, whole tile at once.
        Muls(sq, sq, invD, ns);
        Adds(sq, sq, eps, ns);
        Sqrt(sq, sq, ns);
        Duplicate(ones, 1.0f, ns);
        Div(rstdOut, ones, sq, ns);
        WaitVectorToScalar();

        LocalTensor<T> yLocal;
        LocalTensor<float> y32Local;
        LocalTensor<float> res = x;
        if (args.y != nullptr) {
            yLocal = yQ.template AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                res = yLocal;
            }
        }
        if (args.y32 != nullptr) {
            y32Local = y32Q.template AllocTensor<float>();
            res = y32Local;
        }
        for (uint32_t i = 0; i < r; ++i) {
            const float rs = rstdOut.GetValue(i * kSlot);
            Muls(res[i * S], x[i * S], rs, D);
            if (args.gamma != nullptr) {
                Mul(res[i * S], res[i * S], gammaF, D);
            }
            if (args.beta != nullptr) {
                Add(res[i * S], res[i * S], betaF, D);
            }
        }
        if constexpr (xIsInput) {
            inQ[0].FreeTensor(in[0]);
        }
        statQ.EnQue(stat);
        if (args.y != nullptr) {
            if (args.y32 != nullptr && std::is_same_v<T, float>) {
                Adds(yLocal.template ReinterpretCast<float>(), res, 0.0f, n);
            } else if constexpr (!std::is_same_v<T, float>) {
                Cast(yLocal, res, RoundMode::CAST_RINT, n);
            }
            yQ.EnQue(yLocal);
        }
        if (args.y32 != nullptr) {
            y32Q.EnQue(y32Local);
        }
        if (args.yq != nullptr) {
            Quantize(res, tmp, r);  // last: it reuses the x buffer
        }
    }

    // yq = clamp(rint(res / scale + offset), -128, 127) as int8 (float32 math, exact conversions).
    // Used with 2-byte input dtypes only (S is then a multiple of 16 halves: 32-byte aligned rows).
    __aicore__ inline void Quantize(const LocalTensor<float>& res, const LocalTensor<float>& tmp, uint32_t r)
    {
        const uint32_t n = r * S;
        for (uint32_t i = 0; i < r; ++i) {
            Div(tmp[i * S], res[i * S], scaleF, D);
            if (args.offset != nullptr) {
                Add(tmp[i * S], tmp[i * S], offsetF, D);
            }
        }
        Maxs(tmp, tmp, -128.0f, n);
        Mins(tmp, tmp, 127.0f, n);
        Cast(tmp, tmp, RoundMode::CAST_RINT, n);  // round half to even, still float32
        LocalTensor<half> h = xBuf.Get<half>();      // x is no longer needed: integers are exact in half
        Cast(h, tmp, RoundMode::CAST_NONE, n);
        LocalTensor<int8_t> q = yqQ.template AllocTensor<int8_t>();
        for (uint32_t i = 0; i < r; ++i) {
            Cast(q[i * S8], h[i * S], RoundMode::CAST_NONE, D);
        }
        yqQ.EnQue(q);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        const uint64_t off = uint64_t(row) * D;
        if (args.xsum != nullptr) {
            LocalTensor<T> l = xQ.template DeQue<T>();
            DataCopyPad(xGm[off], l, DataCopyExtParams{static_cast<uint16_t>(r), uint32_t(D * sizeof(T)), 0, 0, 0});
            xQ.FreeTensor(l);
        }
        if (args.y32 != nullptr) {
            LocalTensor<float> l = y32Q.template DeQue<float>();
            // float32 rows sit at the input dtype's stride S: skip the blocks beyond D's footprint.
            const uint32_t gap = (S * sizeof(float) - (D * sizeof(float) + 31) / 32 * 32) / 32;
            DataCopyPad(y32Gm[off], l, DataCopyExtParams{static_cast<uint16_t>(r), uint32_t(D * sizeof(float)), gap, 0, 0});
            y32Q.FreeTensor(l);
        }
        if (args.y != nullptr) {
            LocalTensor<T> l = yQ.template DeQue<T>();
            DataCopyPad(yGm[off], l, DataCopyExtParams{static_cast<uint16_t>(r), uint32_t(D * sizeof(T)), 0, 0, 0});
            yQ.FreeTensor(l);
        }
        if (args.yq != nullptr) {
            LocalTensor<int8_t> l = yqQ.template DeQue<int8_t>();
            DataCopyPad(yqGm[off], l, DataCopyExtParams{static_cast<uint16_t>(r), D, 0, 0, 0});
            yqQ.FreeTensor(l);
        }
        LocalTensor<float> stat = statQ.template DeQue<float>();
        // One 4-byte block per row, each read from its own 32-byte slot.
        DataCopyExtParams sp{static_cast<uint16_t>(r), sizeof(float), 0, 0, 0};
        if (args.mean != nullptr) {
            DataCopyPad(meanGm[row], stat, sp);
        }
        if (args.rstd != nullptr) {
            DataCopyPad(rstdGm[row], stat[R * kSlot], sp);
        }
        statQ.FreeTensor(stat);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kMaxBuf> inQ[3];
    TQue<QuePosition::VECOUT, kMaxBuf> yQ, y32Q, yqQ, xQ, statQ;
    TBuf<QuePosition::VECCALC> xBuf, tmpBuf, redBuf, paramBuf;
    GlobalTensor<T> inGm[3], yGm, xGm;
    GlobalTensor<float> y32Gm, meanGm, rstdGm;
    GlobalTensor<int8_t> yqGm;
    LocalTensor<float> work, gammaF, betaF, scaleF, offsetF;
    RowNormArgs args;
    uint32_t D = 0, S = 0, S8 = 0, R = 1, myRows = 0, nIn = 1, nParams = 0;
    float eps = 0.0f, alpha = 1.0f, invD = 1.0f;
};
}  // namespace row_norm_kernels

#endif  // ROW_NORM_KERNEL_H
