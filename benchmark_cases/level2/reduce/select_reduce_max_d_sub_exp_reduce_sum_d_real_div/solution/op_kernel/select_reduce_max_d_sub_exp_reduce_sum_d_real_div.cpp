#include "kernel_operator.h"
using namespace AscendC;

// Masked softmax over rows of D elements. Rows are split over the cores (big cores take one extra
// row); each tile of r rows is kept at a row stride S (a multiple of 32 elements) for the uint8
// mask, x, and their float32 forms, so whole-tile vector instructions line up row by row.
//   z = x + (mask - 1) * 3e38     masked lanes become about -3e38: exp underflows to exactly 0,
//                                 the same as the reference's -inf without a Select
//   per row: m = ReduceMax(z); e = exp(z - m); s = ReduceSum(e); y = e * (1 / s)
constexpr int32_t kBufNum = 2;
constexpr uint32_t kSlot = 8;
constexpr float kMaskedOffset = 3.0e38f;

template <typename T>
class MaskedSoftmax {
public:
    __aicore__ inline MaskedSoftmax() {}
    template <typename TD>
    __aicore__ inline void Init(GM_ADDR mask, GM_ADDR x, GM_ADDR y, const TD& t)
    {
        D = t.colLen;
        S = t.rowStride;
        R = t.rowsPerTile;
        const uint32_t idx = GetBlockIdx();
        myRows = t.rowsPerCore + (idx < t.bigCoreNum ? 1 : 0);
        const uint64_t off = (uint64_t(idx) * t.rowsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum)) * D;
        maskGm.SetGlobalBuffer((__gm__ uint8_t*)mask + off, uint64_t(myRows) * D);
        xGm.SetGlobalBuffer((__gm__ T*)x + off, uint64_t(myRows) * D);
        yGm.SetGlobalBuffer((__gm__ T*)y + off, uint64_t(myRows) * D);
        pipe.InitBuffer(maskQ, t.bufNum, R * S);
        pipe.InitBuffer(xQ, t.bufNum, R * S * sizeof(T));
        pipe.InitBuffer(yQ, t.bufNum, R * S * (sizeof(T) < sizeof(half) ? sizeof(half) : sizeof(T)));
        pipe.InitBuffer(zBuf, R * S * sizeof(float));
        pipe.InitBuffer(mBuf, R * S * sizeof(float));
        pipe.InitBuffer(redBuf, 3 * R * kSlot * sizeof(float));
        pipe.InitBuffer(workBuf, S * sizeof(float));
        // Gap between UB rows (32-byte blocks) when D's 32-byte footprint is below the row stride.
        const uint32_t rowBytes = (D * sizeof(T) + 31) / 32 * 32;
        xGap = (S * sizeof(T) - rowBytes) / 32;
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
    __aicore__ inline void CopyIn(uint32_t row, uint32_t r)
    {
        LocalTensor<uint8_t> m = maskQ.AllocTensor<uint8_t>();
        LocalTensor<T> x = xQ.AllocTensor<T>();
        DataCopyPadExtParams<uint8_t> mpad{false, 0, 0, 0};
        DataCopyPadExtParams<T> xpad{false, 0, 0, 0};
        DataCopyPad(m, maskGm[uint64_t(row) * D], DataCopyExtParams{static_cast<uint16_t>(r), D, 0, 0, 0}, mpad);
        DataCopyPad(x, xGm[uint64_t(row) * D],
                    DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(D * sizeof(T)), 0, xGap, 0},
                    xpad);
        maskQ.EnQue(m);
        xQ.EnQue(x);
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
        LocalTensor<uint8_t> m8 = maskQ.DeQue<uint8_t>();
        LocalTensor<T> x = xQ.DeQue<T>();
        LocalTensor<T> y = yQ.AllocTensor<T>();
        LocalTensor<float> z = zBuf.Get<float>();
        LocalTensor<float> mf = mBuf.Get<float>();
        LocalTensor<float> mx = redBuf.Get<float>();
        LocalTensor<float> sm = mx[R * kSlot];
        LocalTensor<float> ones = mx[2 * R * kSlot];
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<half> mh = y.template ReinterpretCast<half>();  // y is free until the end
        Cast(mh, m8, RoundMode::CAST_NONE, n);
        Cast(mf, mh, RoundMode::CAST_NONE, n);
        maskQ.FreeTensor(m8);
        if constexpr (std::is_same_v<T, float>) {
            Adds(z, x, 0.0f, n);
        } else {
            Cast(z, x, RoundMode::CAST_NONE, n);
        }
        xQ.FreeTensor(x);
        Adds(mf, mf, -1.0f, n);
        Muls(mf, mf, kMaskedOffset, n);
        Add(z, z, mf, n);
        for (uint32_t i = 0; i < r; ++i) {
            ReduceMax(mx[i * kSlot], z[i * S], work, D, false);
        }
        WaitVectorToScalar();
        for (uint32_t i = 0; i < r; ++i) {
            Adds(z[i * S], z[i * S], -mx.GetValue(i * kSlot), D);
        }
        Exp(z, z, n);
        for (uint32_t i = 0; i < r; ++i) {
            ReduceSum(sm[i * kSlot], z[i * S], work, D);
        }
        Duplicate(ones, 1.0f, r * kSlot);
        Div(sm, ones, sm, r * kSlot);
        WaitVectorToScalar();
        LocalTensor<float> dst = z;
        if constexpr (std::is_same_v<T, float>) {
            dst = y;
        }
        for (uint32_t i = 0; i < r; ++i) {
            Muls(dst[i * S], z[i * S], sm.GetValue(i * kSlot), D);
        }
        if constexpr (!std::is_same_v<T, float>) {
            Cast(y, z, RoundMode::CAST_RINT, n);
        }
        yQ.EnQue(y);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        LocalTensor<T> y = yQ.DeQue<T>();
        DataCopyPad(yGm[uint64_t(row) * D], y,
                    DataCopyExtParams{static_cast<uint16_t>(r), static_cast<uint32_t>(D * sizeof(T)), xGap, 0, 0});
        yQ.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kBufNum> maskQ, xQ;
    TQue<QuePosition::VECOUT, kBufNum> yQ;
    TBuf<QuePosition::VECCALC> zBuf, mBuf, redBuf, workBuf;
    GlobalTensor<uint8_t> maskGm;
    GlobalTensor<T> xGm, yGm;
    uint32_t D = 0, S = 0, R = 1, myRows = 0, xGap = 0;
};

extern "C" __global__ __aicore__ void select_reduce_max_d_sub_exp_reduce_sum_d_real_div(GM_ADDR mask, GM_ADDR x, GM_ADDR y,
                                                                                        GM_ADDR workspace,
                                                                                        GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MaskedSoftmax<DTYPE_X> op;
    op.Init(mask, x, y, tilingData);
    op.Process();
}
