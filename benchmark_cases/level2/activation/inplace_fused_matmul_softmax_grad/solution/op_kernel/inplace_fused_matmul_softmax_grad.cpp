#include "kernel_operator.h"
using namespace AscendC;

// Rows (batch * M) are split over the cores, big cores first. A core keeps the float32 copy of the
// current batch's values [N, K] in UB (reloaded when its rows cross into the next batch). For a row:
//   dy[n] = sum_k g[k] * v[n, k]: one Mul over chunks of up to 128 values rows (one repeat per row of v,
//          K lanes, src1 repeat stride 0 broadcasts g), then one WholeReduceSum (one sum per repeat);
//   s = sum(y * dy); grad = y * (dy - s), rounded once to T and written back over the softmax row.
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t CHUNK = 128;   // values rows per Mul / WholeReduceSum (repeatTimes <= 255)
constexpr uint32_t MAX_NK = 16384;
constexpr uint32_t MAX_N = 2048;  // N <= 16384 / 8

template <typename T>
class FusedMatmulSoftmaxGrad {
    static constexpr bool CAST = !std::is_same_v<T, float>;

public:
    __aicore__ inline FusedMatmulSoftmaxGrad() {}

    __aicore__ inline void Init(GM_ADDR y, GM_ADDR g, GM_ADDR v, const InplaceFusedMatmulSoftmaxGradTilingData& t)
    {
        const uint32_t idx = GetBlockIdx();
        rowStart_ = idx * t.rowsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        rowCount_ = t.rowsPerCore + (idx < t.bigCoreNum ? 1 : 0);
        m_ = t.m;
        n_ = t.n;
        k_ = t.k;
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        gGm_.SetGlobalBuffer((__gm__ T*)g);
        vGm_.SetGlobalBuffer((__gm__ T*)v);
        const uint32_t nAlign = (n_ + 63) / 64 * 64;
        pipe_.InitBuffer(yQ_, BUFFER_NUM, nAlign * sizeof(T));
        pipe_.InitBuffer(gQ_, BUFFER_NUM, 64 * sizeof(T));
        pipe_.InitBuffer(outQ_, BUFFER_NUM, nAlign * sizeof(T));
        pipe_.InitBuffer(vBuf_, n_ * k_ * sizeof(float) + 256);
        pipe_.InitBuffer(tmpBuf_, CHUNK * 64 * sizeof(float));
        pipe_.InitBuffer(rowBuf_, 3 * nAlign * sizeof(float) + 64 * sizeof(float) + 32 * sizeof(float));
        nAlign_ = nAlign;
    }

    __aicore__ inline void Process()
    {
        uint32_t curBatch = 0xFFFFFFFFu;
        for (uint32_t i = 0; i < rowCount_; ++i) {
            const uint32_t row = rowStart_ + i;
            const uint32_t b = row / m_;
            if (b != curBatch) {
                LoadValues(b);
                curBatch = b;
            }
            CopyIn(row);
            Compute();
            CopyOut(row);
        }
    }

private:
    __aicore__ inline void LoadValues(uint32_t b)
    {
        LocalTensor<float> vF = vBuf_.Get<float>();
        const uint32_t count = n_ * k_;
        const DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        if constexpr (CAST) {
            LocalTensor<T> raw = tmpBuf_.Get<float>().template ReinterpretCast<T>();
            Sync<HardEvent::V_MTE2>();  // the previous rows' Mul may still read the staging buffer
            DataCopyPad(raw, vGm_[static_cast<uint64_t>(b) * count], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
            Sync<HardEvent::MTE2_V>();
            Cast(vF, raw, RoundMode::CAST_NONE, count);
        } else {
            Sync<HardEvent::V_MTE2>();
            DataCopyPad(vF, vGm_[static_cast<uint64_t>(b) * count], params, DataCopyPadExtParams<float>{false, 0, 0, 0});
            Sync<HardEvent::MTE2_V>();
        }
    }

    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<T> yt = yQ_.AllocTensor<T>();
        LocalTensor<T> gt = gQ_.AllocTensor<T>();
        DataCopyPad(yt, yGm_[static_cast<uint64_t>(row) * n_], DataCopyExtParams{1, static_cast<uint32_t>(n_ * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(gt, gGm_[static_cast<uint64_t>(row) * k_], DataCopyExtParams{1, static_cast<uint32_t>(k_ * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        yQ_.EnQue(yt);
        gQ_.EnQue(gt);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> yt = yQ_.DeQue<T>();
        LocalTensor<T> gt = gQ_.DeQue<T>();
        LocalTensor<float> rows = rowBuf_.Get<float>();
        LocalTensor<float> yF = rows;
        LocalTensor<float> dy = rows[nAlign_];
        LocalTensor<float> prod = rows[2 * nAlign_];
        LocalTensor<float> gF = rows[3 * nAlign_];
        LocalTensor<float> sum = rows[3 * nAlign_ + 64];
        LocalTensor<float> vF = vBuf_.Get<float>();
        LocalTensor<float> tmp = tmpBuf_.Get<float>();
        if constexpr (CAST) {
            Cast(yF, yt, RoundMode::CAST_NONE, n_);
            Cast(gF, gt, RoundMode::CAST_NONE, k_);
        } else {
            Adds(yF, yt, 0.0f, n_);
            Adds(gF, gt, 0.0f, k_);
        }
        yQ_.FreeTensor(yt);
        gQ_.FreeTensor(gt);
        // dy = v @ g, CHUNK rows of v at a time: tmp[r, :] = v[r, :] * g; dy[r] = sum(tmp[r, :]).
        const uint8_t rowStride = static_cast<uint8_t>(k_ / 8);  // one row of v in 32-byte blocks
        for (uint32_t c0 = 0; c0 < n_; c0 += CHUNK) {
            const uint32_t cn = (n_ - c0) < CHUNK ? (n_ - c0) : CHUNK;
            Mul(tmp, vF[c0 * k_], gF, static_cast<uint64_t>(k_), cn, BinaryRepeatParams(1, 1, 1, rowStride, rowStride, 0));
            WholeReduceSum(dy[c0], tmp, static_cast<int32_t>(k_), static_cast<int32_t>(cn), 1, 1, rowStride);
        }
        // s = sum(y * dy); grad = y * (dy - s)
        Mul(prod, yF, dy, n_);
        ReduceSum(sum, prod, tmp, n_);
        Sync<HardEvent::V_S>();
        const float s = sum.GetValue(0);
        Sync<HardEvent::S_V>();
        Adds(dy, dy, -s, n_);
        LocalTensor<T> out = outQ_.AllocTensor<T>();
        if constexpr (CAST) {
            Mul(prod, yF, dy, n_);
            Cast(out, prod, RoundMode::CAST_RINT, n_);
        } else {
            Mul(out, yF, dy, n_);
        }
        outQ_.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<T> out = outQ_.DeQue<T>();
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * n_], out, DataCopyExtParams{1, static_cast<uint32_t>(n_ * sizeof(T)), 0, 0, 0});
        outQ_.FreeTensor(out);
    }

    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> yQ_, gQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ_;
    TBuf<QuePosition::VECCALC> vBuf_, tmpBuf_, rowBuf_;
    GlobalTensor<T> yGm_, gGm_, vGm_;
    uint32_t rowStart_ = 0, rowCount_ = 0, m_ = 1, n_ = 1, k_ = 8, nAlign_ = 64;
};

extern "C" __global__ __aicore__ void inplace_fused_matmul_softmax_grad(GM_ADDR softmax_output, GM_ADDR grad_output,
                                                                        GM_ADDR values, GM_ADDR y, GM_ADDR workspace,
                                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    FusedMatmulSoftmaxGrad<DTYPE_SOFTMAX_OUTPUT> op;
    op.Init(softmax_output, grad_output, values, t);
    op.Process();
}
