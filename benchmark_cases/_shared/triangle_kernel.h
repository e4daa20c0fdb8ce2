// triangle_kernel.h -- kernel base shared by Tril and Triu (level-2 Mask solutions).
//
// x is [..., M, N]: batch * M rows of N columns. Rows are split over cores (big cores take one
// more); each core walks its rows in groups that fit UB (columns in chunks when a row is longer
// than a tile), loads a group with one strided DataCopyPad, and per row builds a bit mask by
// comparing a column-index ramp with the row's threshold (CompareScalar), then keeps or zeroes
// elements with Select. 16-bit types select as half, 32-bit types as float (bit moves only).
#ifndef TRIANGLE_KERNEL_H
#define TRIANGLE_KERNEL_H

#include "kernel_operator.h"

namespace triangle_kernels {
using namespace AscendC;

constexpr int32_t kTriBufferNum = 2;

struct TriShape {
    uint32_t rows;      // batch * M
    uint32_t cols;      // N
    uint32_t height;    // M (row index inside a matrix = row % M)
    int32_t diagonal;
    uint32_t coreNum;
    uint32_t tileElems;  // elements per queue buffer
    uint32_t colTile;    // columns per chunk (multiple of 64)
};

template <typename T, bool LOWER>
class Triangle {
    using V = std::conditional_t<sizeof(T) == 2, half, float>;  // type the select moves bits as

public:
    __aicore__ inline Triangle() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TriShape& s)
    {
        s_ = s;
        const uint32_t idx = GetBlockIdx();
        const uint32_t base = s_.rows / s_.coreNum;
        const uint32_t big = s_.rows % s_.coreNum;
        rowStart_ = idx * base + (idx < big ? idx : big);
        rowCount_ = base + (idx < big ? 1 : 0);
        const uint64_t total = static_cast<uint64_t>(s_.rows) * s_.cols;
        xGm_.SetGlobalBuffer((__gm__ T*)x, total);
        yGm_.SetGlobalBuffer((__gm__ T*)y, total);
        pipe_.InitBuffer(inQ_, kTriBufferNum, s_.tileElems * sizeof(T));
        pipe_.InitBuffer(outQ_, kTriBufferNum, s_.tileElems * sizeof(T));
        pipe_.InitBuffer(rampBuf_, s_.colTile * sizeof(float));
        pipe_.InitBuffer(maskBuf_, s_.colTile / 8);
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0) {
            return;
        }
        // ramp[j] = j for the columns of one chunk (exact in float32).
        LocalTensor<float> ramp = rampBuf_.Get<float>();
        CreateVecIndex(ramp, 0.0f, s_.colTile);
        for (uint32_t c0 = 0; c0 < s_.cols; c0 += s_.colTile) {
            const uint32_t cn = (s_.cols - c0) < s_.colTile ? (s_.cols - c0) : s_.colTile;
            const uint32_t stride = (cn + EPB - 1) / EPB * EPB;
            uint32_t group = s_.tileElems / stride;
            group = group < 4095 ? group : 4095;
            for (uint32_t r0 = 0; r0 < rowCount_; r0 += group) {
                const uint32_t rn = (rowCount_ - r0) < group ? (rowCount_ - r0) : group;
                CopyIn(rowStart_ + r0, c0, rn, cn);
                Compute(rowStart_ + r0, c0, rn, cn, stride, ramp);
                CopyOut(rowStart_ + r0, c0, rn, cn);
            }
        }
    }

private:
    static constexpr uint32_t EPB = 32 / sizeof(T);

    __aicore__ inline void CopyIn(uint32_t row, uint32_t col, uint32_t rn, uint32_t cn)
    {
        LocalTensor<T> x = inQ_.AllocTensor<T>();
        DataCopyExtParams params{static_cast<uint16_t>(rn), static_cast<uint32_t>(cn * sizeof(T)),
                                 static_cast<uint32_t>((s_.cols - cn) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(x, xGm_[static_cast<uint64_t>(row) * s_.cols + col], params, pad);
        inQ_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t row, uint32_t col, uint32_t rn, uint32_t cn, uint32_t stride,
                                   const LocalTensor<float>& ramp)
    {
        LocalTensor<T> x = inQ_.DeQue<T>();
        LocalTensor<T> y = outQ_.AllocTensor<T>();
        LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
        LocalTensor<V> xv = x.template ReinterpretCast<V>();
        LocalTensor<V> yv = y.template ReinterpretCast<V>();
        const uint32_t cmpCount = (cn + 63) / 64 * 64;  // whole 256-byte repeats of the float ramp
        for (uint32_t r = 0; r < rn; ++r) {
            // Tril keeps j <= i + diagonal, Triu keeps j >= i + diagonal (j, i: matrix indices).
            int64_t thr = static_cast<int64_t>((row + r) % s_.height) + s_.diagonal - col;
            thr = thr < -1 ? -1 : (thr > static_cast<int64_t>(cn) ? static_cast<int64_t>(cn) : thr);
            CompareScalar(mask, ramp, static_cast<float>(thr), LOWER ? CMPMODE::LE : CMPMODE::GE, cmpCount);
            Select(yv[r * stride], mask, xv[r * stride], static_cast<V>(0), SELMODE::VSEL_TENSOR_SCALAR_MODE, cn);
        }
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t col, uint32_t rn, uint32_t cn)
    {
        LocalTensor<T> y = outQ_.DeQue<T>();
        DataCopyExtParams params{static_cast<uint16_t>(rn), static_cast<uint32_t>(cn * sizeof(T)), 0,
                                 static_cast<uint32_t>((s_.cols - cn) * sizeof(T)), 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * s_.cols + col], y, params);
        outQ_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, kTriBufferNum> inQ_;
    TQue<QuePosition::VECOUT, kTriBufferNum> outQ_;
    TBuf<QuePosition::VECCALC> rampBuf_, maskBuf_;
    GlobalTensor<T> xGm_, yGm_;
    TriShape s_{};
    uint32_t rowStart_ = 0;
    uint32_t rowCount_ = 0;
};

template <typename T, bool LOWER>
__aicore__ inline void RunTriangle(GM_ADDR x, GM_ADDR y, const TriShape& shape)
{
    Triangle<T, LOWER> kernel;
    kernel.Init(x, y, shape);
    kernel.Process();
}

}  // namespace triangle_kernels

#endif  // TRIANGLE_KERNEL_H
