#include "kernel_operator.h"
using namespace AscendC;

// CrossEntropyLossGrad: x_grad[n, :] = (exp(log_prob[n, :]) - onehot(target[n])) * g[n], 0 for
// ignored rows; g = grad_loss / count(valid) ("mean"), grad_loss ("sum") or grad_loss[n] ("none").
//
// "mean" first counts the valid targets over the whole batch: each core counts its own rows, parks
// the count in its 32-byte workspace slot, SyncAll, and every core adds the slots. Then rows are
// processed in tiles of r rows (one strided DataCopyPad, 32-byte padded rows in UB, pad lanes 0):
//   V: cast to float32, exp of the whole tile at once
//   S: subtract 1 at each valid row's target class
//   V: scale each row by its g (zero-fill ignored rows), cast back; MTE3 writes the tile.
constexpr uint32_t kSlot = 8;  // floats per 32-byte slot
constexpr uint32_t kNone = 0, kMean = 1;

template <typename T, int32_t BUF>
class CrossEntropyLossGradKernel {
public:
    __aicore__ inline CrossEntropyLossGradKernel() {}

    template <class Tiling>
    __aicore__ inline void Init(GM_ADDR gradLoss, GM_ADDR logProb, GM_ADDR target, GM_ADDR xGrad, GM_ADDR workspace,
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
        lpGm_.SetGlobalBuffer((__gm__ T*)logProb, total);
        dxGm_.SetGlobalBuffer((__gm__ T*)xGrad, total);
        tGm_.SetGlobalBuffer((__gm__ int64_t*)target, t->numRows);
        gGm_.SetGlobalBuffer((__gm__ T*)gradLoss, mode_ == kNone ? t->numRows : 1);
        wsGm_.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), GetBlockNum() * kSlot);

        const uint32_t n = R_ * S_;
        pipe_.InitBuffer(inQ_, BUF, n * sizeof(T));
        pipe_.InitBuffer(outQ_, BUF, n * sizeof(T));
        if constexpr (CAST) {
            pipe_.InitBuffer(xBuf_, n * sizeof(float));
        }
        pipe_.InitBuffer(tgtBuf_, Align32(R_ * sizeof(int64_t)));
        pipe_.InitBuffer(gTBuf_, Align32(R_ * sizeof(T)));
        pipe_.InitBuffer(gFBuf_, Align32(R_ * sizeof(float)));
        pipe_.InitBuffer(partBuf_, GetBlockNum() * kSlot * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (mode_ != kNone) {
            scale_ = LoadScalarGrad();
            if (mode_ == kMean) {
                scale_ = scale_ / CountValid();  // no valid row at all: every row is zero-filled
            }
        }
        for (uint32_t r0 = 0; r0 < rowCount_; r0 += R_) {
            const uint32_t r = (rowCount_ - r0) < R_ ? (rowCount_ - r0) : R_;
            CopyIn(rowStart_ + r0, r);
            Compute(rowStart_ + r0, r);
            CopyOut(rowStart_ + r0, r);
        }
    }

private:
    static constexpr bool CAST = !std::is_same_v<T, float>;

    __aicore__ static inline uint32_t Align32(uint32_t bytes) { return (bytes + 31) / 32 * 32; }

    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    // grad_loss elements [first, first + r) as float32 in gF (valid after the V_S sync).
    __aicore__ inline LocalTensor<float> LoadGrad(uint32_t first, uint32_t r)
    {
        LocalTensor<T> gT = gTBuf_.template Get<T>();
        LocalTensor<float> gF = gFBuf_.template Get<float>();
        DataCopyPad(gT, gGm_[first], DataCopyExtParams{1, static_cast<uint32_t>(r * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        Sync<HardEvent::MTE2_V>();
        if constexpr (CAST) {
            Cast(gF, gT, RoundMode::CAST_NONE, r);
        } else {
            Adds(gF, gT, 0.0f, r);
        }
        Sync<HardEvent::V_S>();
        return gF;
    }

    __aicore__ inline float LoadScalarGrad() { return LoadGrad(0, 1).GetValue(0); }

    __aicore__ inline void LoadTargets(uint32_t row, uint32_t r)
    {
        LocalTensor<int64_t> tgt = tgtBuf_.template Get<int64_t>();
        DataCopyPad(tgt, tGm_[row], DataCopyExtParams{1, static_cast<uint32_t>(r * sizeof(int64_t)), 0, 0, 0},
                    DataCopyPadExtParams<int64_t>{false, 0, 0, 0});
        Sync<HardEvent::MTE2_S>();
    }

    // Number of valid targets over the whole batch (cross-core, through the workspace).
    __aicore__ inline float CountValid()
    {
        float count = 0.0f;
        LocalTensor<int64_t> tgt = tgtBuf_.template Get<int64_t>();
        for (uint32_t r0 = 0; r0 < rowCount_; r0 += R_) {
            const uint32_t r = (rowCount_ - r0) < R_ ? (rowCount_ - r0) : R_;
            LoadTargets(rowStart_ + r0, r);
            for (uint32_t i = 0; i < r; ++i) {
                count += tgt.GetValue(i) != ignore_ ? 1.0f : 0.0f;
            }
        }
        LocalTensor<float> slot = gFBuf_.template Get<float>();
        slot.SetValue(0, count);
        Sync<HardEvent::S_MTE3>();
        DataCopyPad(wsGm_[GetBlockIdx() * kSlot], slot, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
        SyncAll();
        const uint32_t cores = GetBlockNum();
        LocalTensor<float> parts = partBuf_.template Get<float>();
        DataCopyPad(parts, wsGm_, DataCopyExtParams{1, static_cast<uint32_t>(cores * kSlot * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        Sync<HardEvent::MTE2_S>();
        float total = 0.0f;
        for (uint32_t c = 0; c < cores; ++c) {
            total += parts.GetValue(c * kSlot);
        }
        return total;
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t r)
    {
        LocalTensor<T> lp = inQ_.template AllocTensor<T>();
        DataCopyExtParams params{static_cast<uint16_t>(r), static_cast<uint32_t>(C_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(S_ - C_), static_cast<T>(0)};
        DataCopyPad(lp, lpGm_[static_cast<uint64_t>(row) * C_], params, pad);
        inQ_.EnQue(lp);
    }

    __aicore__ inline void Compute(uint32_t row, uint32_t r)
    {
        const uint32_t n = r * S_;
        LocalTensor<float> g = gFBuf_.template Get<float>();
        if (mode_ == kNone) {
            g = LoadGrad(row, r);
        }
        LoadTargets(row, r);
        LocalTensor<int64_t> tgt = tgtBuf_.template Get<int64_t>();

        LocalTensor<T> lp = inQ_.template DeQue<T>();
        LocalTensor<T> out = outQ_.template AllocTensor<T>();
        LocalTensor<float> x;
        if constexpr (CAST) {
            x = xBuf_.template Get<float>();
            Cast(x, lp, RoundMode::CAST_NONE, n);
            Exp(x, x, n);
        } else {
            x = out;
            Exp(x, lp, n);
        }
        inQ_.FreeTensor(lp);
        Sync<HardEvent::V_S>();
        // softmax - onehot at the target class; the row's scale goes to g[i] (0: ignored row).
        for (uint32_t i = 0; i < r; ++i) {
            const int64_t t = tgt.GetValue(i);
            float s = 0.0f;
            if (t != ignore_) {
                const uint32_t at = i * S_ + static_cast<uint32_t>(t);
                x.SetValue(at, x.GetValue(at) - 1.0f);
                s = mode_ == kNone ? g.GetValue(i) : scale_;
            }
            g.SetValue(i, s);
        }
        Sync<HardEvent::S_V>();
        for (uint32_t i = 0; i < r; ++i) {
            const float s = g.GetValue(i);
            if (tgt.GetValue(i) != ignore_) {
                Muls(x[i * S_], x[i * S_], s, C_);
            } else {
                Duplicate(x[i * S_], 0.0f, C_);
            }
        }
        if constexpr (CAST) {
            Cast(out, x, RoundMode::CAST_RINT, n);
        }
        outQ_.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        LocalTensor<T> out = outQ_.template DeQue<T>();
        DataCopyExtParams params{static_cast<uint16_t>(r), static_cast<uint32_t>(C_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(dxGm_[static_cast<uint64_t>(row) * C_], out, params);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF> inQ_;
    TQue<QuePosition::VECOUT, BUF> outQ_;
    TBuf<QuePosition::VECCALC> xBuf_, tgtBuf_, gTBuf_, gFBuf_, partBuf_;
    GlobalTensor<T> lpGm_, dxGm_, gGm_;
    GlobalTensor<int64_t> tGm_;
    GlobalTensor<float> wsGm_;
    uint32_t C_ = 0, S_ = 0, R_ = 0, mode_ = 0;
    int64_t ignore_ = -100;
    uint32_t rowStart_ = 0, rowCount_ = 0;
    float scale_ = 0.0f;
};

extern "C" __global__ __aicore__ void cross_entropy_loss_grad(GM_ADDR grad_loss, GM_ADDR log_prob, GM_ADDR target,
                                                              GM_ADDR x_grad, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(2)) {
        CrossEntropyLossGradKernel<DTYPE_LOG_PROB, 2> op;
        op.Init(grad_loss, log_prob, target, x_grad, workspace, &t);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        CrossEntropyLossGradKernel<DTYPE_LOG_PROB, 1> op;
        op.Init(grad_loss, log_prob, target, x_grad, workspace, &t);
        op.Process();
    }
}
