#include "kernel_operator.h"
using namespace AscendC;

// CrossEntropyLoss: per row log_prob = x - max - ln(sum(exp(x - max))), l = -log_prob[target].
//
// Rows are split over cores (big cores take one more). Per tile of r rows (one strided DataCopyPad,
// rows 32-byte padded in UB, pad lanes filled with 0):
//   V: cast to float32; per row ReduceMax into a 32-byte slot; x -= max (per row); exp of the whole
//      tile at once; per row ReduceSum; ln of all the row sums at once (one slot per row)
//   S: loss[i] = lse[i] - x[i, target[i]] (0 for ignored rows); per-core sum and count
//   V: log_prob = x - lse (per row), cast back; MTE3 writes log_prob and, for "none", the losses.
// "mean" / "sum": each core parks (sum, count) in its own 32-byte workspace slot; after SyncAll core 0
// adds the partials and writes the 0-d result.
constexpr uint32_t kSlot = 8;  // floats per 32-byte slot
constexpr uint32_t kNone = 0, kMean = 1;

template <typename T, int32_t BUF>
class CrossEntropyLossKernel {
public:
    __aicore__ inline CrossEntropyLossKernel() {}

    template <class Tiling>
    __aicore__ inline void Init(GM_ADDR input, GM_ADDR target, GM_ADDR loss, GM_ADDR logProb, GM_ADDR workspace,
                                const Tiling* t)
    {
        C_ = t->numCls;
        S_ = t->rowStride;
        R_ = t->rowsPerTile;
        mode_ = t->reduction;
        ignore_ = t->ignoreIndex;
        const uint32_t idx = GetBlockIdx();
        rowStart_ = idx * t->rowsPerCore + (idx < t->bigCoreNum ? idx : t->bigCoreNum);
        rowCount_ = t->rowsPerCore + (idx < t->bigCoreNum ? 1 : 0);
        const uint64_t total = static_cast<uint64_t>(t->numRows) * C_;
        xGm_.SetGlobalBuffer((__gm__ T*)input, total);
        lpGm_.SetGlobalBuffer((__gm__ T*)logProb, total);
        tGm_.SetGlobalBuffer((__gm__ int64_t*)target, t->numRows);
        lossGm_.SetGlobalBuffer((__gm__ T*)loss, mode_ == kNone ? t->numRows : 1);
        wsGm_.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), GetBlockNum() * kSlot);

        const uint32_t n = R_ * S_;
        pipe_.InitBuffer(inQ_, BUF, n * sizeof(T));
        pipe_.InitBuffer(lpQ_, BUF, n * sizeof(T));
        pipe_.InitBuffer(lossQ_, BUF, Align32(R_ * sizeof(T)));
        if constexpr (CAST) {
            pipe_.InitBuffer(xBuf_, n * sizeof(float));
        }
        pipe_.InitBuffer(expBuf_, n * sizeof(float));
        pipe_.InitBuffer(redBuf_, 2 * R_ * kSlot * sizeof(float));
        pipe_.InitBuffer(tgtBuf_, Align32(R_ * sizeof(int64_t)));
        pipe_.InitBuffer(lossFBuf_, Align32(R_ * sizeof(float)));
        pipe_.InitBuffer(workBuf_, Align32((C_ * sizeof(float) + 255) / 256 * 2 * sizeof(float)));
        pipe_.InitBuffer(partBuf_, GetBlockNum() * kSlot * sizeof(float));
        Duplicate(redBuf_.template Get<float>(), 1.0f, 2 * R_ * kSlot);  // lanes 1..7 of the slots stay finite
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = 0; r0 < rowCount_; r0 += R_) {
            const uint32_t r = (rowCount_ - r0) < R_ ? (rowCount_ - r0) : R_;
            CopyIn(rowStart_ + r0, r);
            Compute(rowStart_ + r0, r);
            CopyOut(rowStart_ + r0, r);
        }
        if (mode_ != kNone) {
            Reduce();
        }
    }

private:
    static constexpr bool CAST = !std::is_same_v<T, float>;
    static constexpr uint32_t EPB = 32 / sizeof(T);

    __aicore__ static inline uint32_t Align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t r)
    {
        LocalTensor<T> x = inQ_.template AllocTensor<T>();
        DataCopyExtParams params{static_cast<uint16_t>(r), static_cast<uint32_t>(C_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(S_ - C_), static_cast<T>(0)};
        DataCopyPad(x, xGm_[static_cast<uint64_t>(row) * C_], params, pad);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t row, uint32_t r)
    {
        const uint32_t n = r * S_;
        LocalTensor<int64_t> tgt = tgtBuf_.template Get<int64_t>();
        DataCopyPad(tgt, tGm_[row], DataCopyExtParams{1, static_cast<uint32_t>(r * sizeof(int64_t)), 0, 0, 0},
                    DataCopyPadExtParams<int64_t>{false, 0, 0, 0});

        LocalTensor<T> in = inQ_.template DeQue<T>();
        LocalTensor<float> x;
        if constexpr (CAST) {
            x = xBuf_.template Get<float>();
            Cast(x, in, RoundMode::CAST_NONE, n);
        } else {
            x = in;
        }
        LocalTensor<float> ex = expBuf_.template Get<float>();
        LocalTensor<float> red = redBuf_.template Get<float>();
        LocalTensor<float> lse = red[R_ * kSlot];
        LocalTensor<float> work = workBuf_.template Get<float>();
        for (uint32_t i = 0; i < r; ++i) {
            ReduceMax(red[i * kSlot], x[i * S_], work, C_);
        }
        Sync<HardEvent::V_S>();
        for (uint32_t i = 0; i < r; ++i) {
            Adds(x[i * S_], x[i * S_], -red.GetValue(i * kSlot), C_);
        }
        Exp(ex, x, n);
        for (uint32_t i = 0; i < r; ++i) {
            ReduceSum(lse[i * kSlot], ex[i * S_], work, C_);
        }
        Ln(lse, lse, r * kSlot);
        Sync<HardEvent::V_S>();
        Sync<HardEvent::MTE2_S>();

        // Scalar part: the target logit of every row (x is max-shifted here).
        LocalTensor<float> lossF = lossFBuf_.template Get<float>();
        for (uint32_t i = 0; i < r; ++i) {
            const int64_t t = tgt.GetValue(i);
            float l = 0.0f;
            if (t != ignore_) {
                l = lse.GetValue(i * kSlot) - x.GetValue(i * S_ + static_cast<uint32_t>(t));
                sum_ += l;
                count_ += 1.0f;
            }
            if (mode_ == kNone) {
                lossF.SetValue(i, l);
            }
        }

        LocalTensor<T> lp = lpQ_.template AllocTensor<T>();
        for (uint32_t i = 0; i < r; ++i) {
            const float s = -lse.GetValue(i * kSlot);
            if constexpr (CAST) {
                Adds(x[i * S_], x[i * S_], s, C_);
            } else {
                Adds(lp[i * S_], x[i * S_], s, C_);
            }
        }
        if constexpr (CAST) {
            Cast(lp, x, RoundMode::CAST_RINT, n);
        }
        lpQ_.EnQue(lp);
        inQ_.FreeTensor(in);
        if (mode_ == kNone) {
            Sync<HardEvent::S_V>();
            LocalTensor<T> lo = lossQ_.template AllocTensor<T>();
            if constexpr (CAST) {
                Cast(lo, lossF, RoundMode::CAST_RINT, r);
            } else {
                Adds(lo, lossF, 0.0f, r);
            }
            lossQ_.EnQue(lo);
        }
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        LocalTensor<T> lp = lpQ_.template DeQue<T>();
        DataCopyExtParams params{static_cast<uint16_t>(r), static_cast<uint32_t>(C_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(lpGm_[static_cast<uint64_t>(row) * C_], lp, params);
        lpQ_.FreeTensor(lp);
        if (mode_ == kNone) {
            LocalTensor<T> lo = lossQ_.template DeQue<T>();
            DataCopyPad(lossGm_[row], lo, DataCopyExtParams{1, static_cast<uint32_t>(r * sizeof(T)), 0, 0, 0});
            lossQ_.FreeTensor(lo);
        }
    }

    // Cross-core reduction of (sum, count) through the workspace.
    __aicore__ inline void Reduce()
    {
        LocalTensor<float> slot = lossFBuf_.template Get<float>();
        slot.SetValue(0, sum_);
        slot.SetValue(1, count_);
        Sync<HardEvent::S_MTE3>();
        DataCopyPad(wsGm_[GetBlockIdx() * kSlot], slot, DataCopyExtParams{1, 2 * sizeof(float), 0, 0, 0});
        SyncAll();
        if (GetBlockIdx() != 0) {
            return;
        }
        const uint32_t cores = GetBlockNum();
        LocalTensor<float> parts = partBuf_.template Get<float>();
        DataCopyPad(parts, wsGm_, DataCopyExtParams{1, static_cast<uint32_t>(cores * kSlot * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        Sync<HardEvent::MTE2_S>();
        float sum = 0.0f;
        float count = 0.0f;
        for (uint32_t c = 0; c < cores; ++c) {
            sum += parts.GetValue(c * kSlot);
            count += parts.GetValue(c * kSlot + 1);
        }
        const float result = mode_ == kMean ? sum / count : sum;  // mean of no rows: 0 / 0 = NaN
        Sync<HardEvent::MTE3_S>();  // the slot's copy-out has read lossF
        slot.SetValue(0, result);
        Sync<HardEvent::S_V>();
        LocalTensor<T> lo = lossQ_.template AllocTensor<T>();
        if constexpr (CAST) {
            Cast(lo, slot, RoundMode::CAST_RINT, 1);
        } else {
            Adds(lo, slot, 0.0f, 1);
        }
        lossQ_.EnQue(lo);
        lo = lossQ_.template DeQue<T>();
        DataCopyPad(lossGm_, lo, DataCopyExtParams{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0});
        lossQ_.FreeTensor(lo);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF> inQ_;
    TQue<QuePosition::VECOUT, BUF> lpQ_, lossQ_;
    TBuf<QuePosition::VECCALC> xBuf_, expBuf_, redBuf_, tgtBuf_, lossFBuf_, workBuf_, partBuf_;
    GlobalTensor<T> xGm_, lpGm_, lossGm_;
    GlobalTensor<int64_t> tGm_;
    GlobalTensor<float> wsGm_;
    uint32_t C_ = 0, S_ = 0, R_ = 0, mode_ = 0;
    int64_t ignore_ = -100;
    uint32_t rowStart_ = 0, rowCount_ = 0;
    float sum_ = 0.0f, count_ = 0.0f;
};

extern "C" __global__ __aicore__ void cross_entropy_loss(GM_ADDR input, GM_ADDR target, GM_ADDR loss,
                                                         GM_ADDR log_prob, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(2)) {
        CrossEntropyLossKernel<DTYPE_INPUT, 2> op;
        op.Init(input, target, loss, log_prob, workspace, &t);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        CrossEntropyLossKernel<DTYPE_INPUT, 1> op;
        op.Init(input, target, loss, log_prob, workspace, &t);
        op.Process();
    }
}
