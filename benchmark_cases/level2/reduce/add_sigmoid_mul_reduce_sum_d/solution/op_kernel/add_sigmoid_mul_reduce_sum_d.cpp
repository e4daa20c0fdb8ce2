#include "kernel_operator.h"
using namespace AscendC;

// Rows of D elements (last dim) split over the cores, big cores taking one extra row. Per tile of r
// rows: three DataCopyPads in (rows land 32-byte aligned), v = x3 / (1 + exp(-(x1 + x2))) in float32
// over the whole tile, one ReduceSum per row into its own 64-byte slot, then the r sums leave with
// one DataCopyPad of r small blocks (2 or 4 bytes each, one slot apart).
constexpr int32_t kBufNum = 2;
constexpr uint32_t kSlot = 16;  // floats per result slot (64 bytes: 32-byte aligned as half too)

template <typename T>
class AddSigmoidMulReduceSum {
public:
    __aicore__ inline AddSigmoidMulReduceSum() {}
    template <typename TD>
    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR y, const TD& t)
    {
        D = t.colLen;
        S = t.rowStride;
        R = t.rowsPerTile;
        const uint32_t idx = GetBlockIdx();
        myRows = t.rowsPerCore + (idx < t.bigCoreNum ? 1 : 0);
        const uint64_t start = uint64_t(idx) * t.rowsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        GM_ADDR ins[3] = {x1, x2, x3};
        for (uint32_t k = 0; k < 3; ++k) {
            inGm[k].SetGlobalBuffer((__gm__ T*)ins[k] + start * D, uint64_t(myRows) * D);
            pipe.InitBuffer(inQ[k], t.bufNum, R * S * sizeof(T));
        }
        yGm.SetGlobalBuffer((__gm__ T*)y + start, myRows);
        pipe.InitBuffer(outQ, t.bufNum, R * kSlot * sizeof(float));
        pipe.InitBuffer(aBuf, R * S * sizeof(float));
        pipe.InitBuffer(bBuf, R * S * sizeof(float));
        pipe.InitBuffer(workBuf, S * sizeof(float));
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
        DataCopyExtParams p{static_cast<uint16_t>(r), static_cast<uint32_t>(D * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t k = 0; k < 3; ++k) {
            LocalTensor<T> l = inQ[k].template AllocTensor<T>();
            DataCopyPad(l, inGm[k][uint64_t(row) * D], p, pad);
            inQ[k].EnQue(l);
        }
    }

    __aicore__ inline void Compute(uint32_t r)
    {
        const uint32_t n = r * S;
        LocalTensor<T> x1 = inQ[0].template DeQue<T>();
        LocalTensor<T> x2 = inQ[1].template DeQue<T>();
        LocalTensor<T> x3 = inQ[2].template DeQue<T>();
        LocalTensor<float> a = aBuf.Get<float>();
        LocalTensor<float> b = bBuf.Get<float>();
        if constexpr (std::is_same_v<T, float>) {
            Add(a, x1, x2, n);
            Muls(a, a, -1.0f, n);
            Exp(a, a, n);
            Adds(a, a, 1.0f, n);
            Div(a, x3, a, n);
        } else {
            Cast(a, x1, RoundMode::CAST_NONE, n);
            Cast(b, x2, RoundMode::CAST_NONE, n);
            Add(a, a, b, n);
            Muls(a, a, -1.0f, n);
            Exp(a, a, n);
            Adds(a, a, 1.0f, n);
            Cast(b, x3, RoundMode::CAST_NONE, n);
            Div(a, b, a, n);
        }
        inQ[0].FreeTensor(x1);
        inQ[1].FreeTensor(x2);
        inQ[2].FreeTensor(x3);
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> out = outQ.template AllocTensor<float>();
        LocalTensor<float> sums = std::is_same_v<T, float> ? out : b;
        for (uint32_t i = 0; i < r; ++i) {
            ReduceSum(sums[i * kSlot], a[i * S], work, D);
        }
        if constexpr (!std::is_same_v<T, float>) {
            // Slot i of 16 floats becomes slot i of 16 halves: still 32-byte aligned.
            Cast(out.template ReinterpretCast<T>(), sums, RoundMode::CAST_RINT, r * kSlot);
        }
        outQ.EnQue(out);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t r)
    {
        LocalTensor<float> out = outQ.template DeQue<float>();
        // r blocks of one element each; UB blocks one slot apart (gap in 32-byte blocks).
        constexpr uint32_t gap = std::is_same_v<T, float> ? 1 : 0;
        DataCopyExtParams p{static_cast<uint16_t>(r), static_cast<uint32_t>(sizeof(T)), gap, 0, 0};
        DataCopyPad(yGm[row], out.template ReinterpretCast<T>(), p);
        outQ.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kBufNum> inQ[3];
    TQue<QuePosition::VECOUT, kBufNum> outQ;
    TBuf<QuePosition::VECCALC> aBuf, bBuf, workBuf;
    GlobalTensor<T> inGm[3], yGm;
    uint32_t D = 0, S = 0, R = 1, myRows = 0;
};

extern "C" __global__ __aicore__ void add_sigmoid_mul_reduce_sum_d(GM_ADDR x1, GM_ADDR x2, GM_ADDR x3, GM_ADDR y,
                                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AddSigmoidMulReduceSum<DTYPE_X1> op;
    op.Init(x1, x2, x3, y, tilingData);
    op.Process();
}
