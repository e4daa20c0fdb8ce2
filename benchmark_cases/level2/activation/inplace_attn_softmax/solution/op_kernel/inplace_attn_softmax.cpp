#include "kernel_operator.h"
using namespace AscendC;

// InplaceAttnSoftmax: y = softmax(x, -1), y aliases x.
//
// Rows are split over cores (big cores take one more); each core walks its rows in tiles of r rows:
//   MTE2: one strided DataCopyPad (rows 32-byte padded in UB, pad lanes 0)
//   V:    cast to float32; per row ReduceMax into a 32-byte slot; x -= max per row; exp of the
//         whole tile at once; per row ReduceSum; 1 / sum for all the rows at once (Div on the slots);
//         per row scale; cast back
//   MTE3: one strided DataCopyPad back over the same rows (in place: every row is read before it
//         is written, and rows never move between cores).
constexpr uint32_t kSlot = 8;  // floats per 32-byte slot

template <typename T, int32_t BUF>
class InplaceAttnSoftmaxKernel {
public:
    __aicore__ inline InplaceAttnSoftmaxKernel() {}

    template <class Tiling>
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const Tiling* t)
    {
        D_ = t->numCls;
        S_ = t->rowStride;
        R_ = t->rowsPerTile;
        const uint32_t idx = GetBlockIdx();
        rowStart_ = idx * t->rowsPerCore + (idx < t->bigCoreNum ? idx : t->bigCoreNum);
        rowCount_ = t->rowsPerCore + (idx < t->bigCoreNum ? 1 : 0);
        const uint64_t total = static_cast<uint64_t>(t->numRows) * D_;
        xGm_.SetGlobalBuffer((__gm__ T*)x, total);
        yGm_.SetGlobalBuffer((__gm__ T*)y, total);
        const uint32_t n = R_ * S_;
        pipe_.InitBuffer(inQ_, BUF, n * sizeof(T));
        pipe_.InitBuffer(outQ_, BUF, n * sizeof(T));
        if constexpr (CAST) {
            pipe_.InitBuffer(xBuf_, n * sizeof(float));
        }
        pipe_.InitBuffer(redBuf_, 3 * R_ * kSlot * sizeof(float));
        pipe_.InitBuffer(workBuf_, (((D_ * sizeof(float) + 255) / 256 * 2 * sizeof(float)) + 31) / 32 * 32);
        LocalTensor<float> red = redBuf_.template Get<float>();
        Duplicate(red, 1.0f, 3 * R_ * kSlot);  // the ones of the Div; other lanes of the slots stay finite
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r0 = 0; r0 < rowCount_; r0 += R_) {
            const uint32_t r = (rowCount_ - r0) < R_ ? (rowCount_ - r0) : R_;
            CopyIn(rowStart_ + r0, r);
            Compute(r);
            CopyOut(rowStart_ + r0, r);
        }
    }

private:
    static constexpr bool CAST = !std::is_same_v<T, float>;

    __aicore__ inline void WaitVectorToScalar()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev);
        WaitFlag<HardEvent::V_S>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t r)
    {
        LocalTensor<T> x = inQ_.template AllocTensor<T>();
        DataCopyExtParams params{static_cast<uint16_t>(r), static_cast<uint32_t>(D_ * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{true, 0, static_cast<uint8_t>(S_ - D_), static_cast<T>(0)};
        DataCopyPad(x, xGm_[static_cast<uint64_t>(row) * D_], params, pad);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t r)
    {
        const uint32_t n = r * S_;
        LocalTensor<T> in = inQ_.template DeQue<T>();
        LocalTensor<T> out = outQ_.template AllocTensor<T>();
        LocalTensor<float> x;  // the row data in float32
        LocalTensor<float> e;  // exp(x - max), scaled in place
        if constexpr (CAST) {
            x = xBuf_.template Get<float>();
            Cast(x, in, RoundMode::CAST_NONE, n);
            e = x;
        } else {
            x = in;
            e = out;
        }
        LocalTensor<float> red = redBuf_.template Get<float>();
        LocalTensor<float> sums = red[R_ * kSlot];
        LocalTensor<float> ones = red[2 * R_ * kSlot];
        LocalTensor<float> work = workBuf_.template Get<float>();
        for (uint32_t i = 0; i < r; ++i) {
            ReduceMax(red[i * kSlot], x[i * S_], work, D_);
        }
        WaitVectorToScalar();
        for (uint32_t i = 0; i < r; ++i) {
            Adds(x[i * S_], x[i * S_], -red.GetValue(i * kSlot), D_);
        }
        Exp(e, x, n);
        if constexpr (!CAST) {
            inQ_.FreeTensor(in);
        }
        for (uint32_t i = 0; i < r; ++i) {
            ReduceSum(sums[i * kSlot], e[i * S_], work, D_);
        }
        Div(sums, ones, sums, r * kSlot);
        WaitVectorToScalar();
        for (uint32_t i = 0; i < r; ++i) {
            Muls(e[i * S_], e[i * S_], sums.GetValue(i * kSlot), D_);
        }
        if constexpr (CAST) {
            Cast(out, e, RoundMode::CAST_RINT, n);
            inQ_.FreeTensor(in);
        }
        outQ_.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        LocalTensor<T> out = outQ_.template DeQue<T>();
        DataCopyExtParams params{static_cast<uint16_t>(r), static_cast<uint32_t>(D_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * D_], out, params);
        outQ_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUF> inQ_;
    TQue<QuePosition::VECOUT, BUF> outQ_;
    TBuf<QuePosition::VECCALC> xBuf_, redBuf_, workBuf_;
    GlobalTensor<T> xGm_, yGm_;
    uint32_t D_ = 0, S_ = 0, R_ = 0;
    uint32_t rowStart_ = 0, rowCount_ = 0;
};

extern "C" __global__ __aicore__ void inplace_attn_softmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(2)) {
        InplaceAttnSoftmaxKernel<DTYPE_X, 2> op;
        op.Init(x, y, &t);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        InplaceAttnSoftmaxKernel<DTYPE_X, 1> op;
        op.Init(x, y, &t);
        op.Process();
    }
}
