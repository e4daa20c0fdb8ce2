// activation_kernel.h -- kernel base shared by the level-2 activation solutions (Gelu, FastGelu, Swish,
// MulSigmoid, SwiGlu, GeGluV2 and their gradients).
//
// Every tensor is viewed as a matrix of `rows` x `cols` elements. A "split" tensor holds two halves
// per row ([rows, 2, cols]: plane a then plane b), which is how GLU-style operators see their input
// split along a dimension; a plain tensor is [rows, cols]. Plain elementwise operators use rows = 1.
//
// Work split: the host either splits rows over cores (rowCores > 1) or 32-byte column blocks
// (colCores > 1), big cores taking one extra unit. Each core walks its sub-matrix in tiles of
// up to `colTile` columns x as many rows as fit `tileElems`; rows are copied with one strided
// DataCopyPad per plane (GM gaps in bytes, UB rows padded to 32 bytes). Queues are double-buffered
// so MTE2 / vector / MTE3 overlap. float16 / bfloat16 data is computed in float32.
//
// An operator supplies a functor `Op` with:
//   static constexpr uint32_t IN, OUT;            number of input / output tensors
//   static constexpr uint32_t IN_SPLIT, OUT_SPLIT bit i set: tensor i is split in two planes
//   static constexpr uint32_t TMP;                float32 scratch planes it needs
//   void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
//                   const LocalTensor<float>* tmp, uint32_t n) const;
// `in` / `out` list the planes in tensor order (a then b for split tensors); the functor may
// overwrite its input planes. An optional `static constexpr uint32_t SPLIT_K` (default 2) sets how
// many planes a split tensor holds ([rows, K, cols], e.g. 3 for a cross product).
#ifndef ACTIVATION_KERNEL_H
#define ACTIVATION_KERNEL_H

#include "kernel_operator.h"

namespace activation_kernels {
using namespace AscendC;

constexpr int32_t kBufferNum = 2;
constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kMaxBurstRows = 4095;  // DataCopyPad blockCount limit

struct EltShape {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowCores;
    uint32_t colCores;
    uint32_t tileElems;  // elements per plane per tile (multiple of 64)
    uint32_t colTile;    // columns per tile (multiple of the 32-byte block)
};

template <class Op, class = void>
struct SplitK {
    static constexpr uint32_t value = 2;
};
template <class Op>
struct SplitK<Op, std::void_t<decltype(Op::SPLIT_K)>> {
    static constexpr uint32_t value = Op::SPLIT_K;
};

__aicore__ constexpr uint32_t PlaneCount(uint32_t tensors, uint32_t splitMask, uint32_t k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < tensors; ++i) {
        n += ((splitMask >> i) & 1U) ? k : 1U;
    }
    return n;
}

template <typename T, class Op>
class Elementwise {
public:
    static constexpr uint32_t K = SplitK<Op>::value;
    static constexpr uint32_t IN_PLANES = PlaneCount(Op::IN, Op::IN_SPLIT, K);
    static constexpr uint32_t OUT_PLANES = PlaneCount(Op::OUT, Op::OUT_SPLIT, K);
    static constexpr bool CAST = !std::is_same_v<T, float>;
    static constexpr uint32_t CALC_PLANES = (CAST ? IN_PLANES + OUT_PLANES : 0) + Op::TMP;

    __aicore__ inline Elementwise() {}

    __aicore__ inline void Init(GM_ADDR const* in, GM_ADDR const* out, const EltShape& shape, const Op& op)
    {
        s_ = shape;
        op_ = op;
        const uint32_t idx = GetBlockIdx();
        const uint32_t rIdx = idx / s_.colCores;
        const uint32_t cIdx = idx % s_.colCores;
        const uint32_t rBase = s_.rows / s_.rowCores;
        const uint32_t rBig = s_.rows % s_.rowCores;
        rowStart_ = rIdx * rBase + (rIdx < rBig ? rIdx : rBig);
        rowCount_ = rBase + (rIdx < rBig ? 1 : 0);
        const uint32_t colBlocks = (s_.cols + EPB - 1) / EPB;
        const uint32_t cBase = colBlocks / s_.colCores;
        const uint32_t cBig = colBlocks % s_.colCores;
        const uint32_t colStart = (cIdx * cBase + (cIdx < cBig ? cIdx : cBig)) * EPB;
        uint32_t colEnd = colStart + (cBase + (cIdx < cBig ? 1 : 0)) * EPB;
        colEnd = colEnd < s_.cols ? colEnd : s_.cols;
        colStart_ = colStart;
        colCount_ = colEnd > colStart ? colEnd - colStart : 0;

        const uint64_t plane = static_cast<uint64_t>(s_.rows) * s_.cols;
        for (uint32_t i = 0; i < Op::IN; ++i) {
            const uint32_t k = Split(Op::IN_SPLIT, i) ? K : 1;
            inGm_[i].SetGlobalBuffer((__gm__ T*)in[i], plane * k);
            pipe_.InitBuffer(inQ_[i], kBufferNum, k * s_.tileElems * sizeof(T));
        }
        for (uint32_t i = 0; i < Op::OUT; ++i) {
            const uint32_t k = Split(Op::OUT_SPLIT, i) ? K : 1;
            outGm_[i].SetGlobalBuffer((__gm__ T*)out[i], plane * k);
            pipe_.InitBuffer(outQ_[i], kBufferNum, k * s_.tileElems * sizeof(T));
        }
        if constexpr (CALC_PLANES > 0) {
            pipe_.InitBuffer(calc_, CALC_PLANES * s_.tileElems * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0 || colCount_ == 0) {
            return;
        }
        for (uint32_t c0 = 0; c0 < colCount_; c0 += s_.colTile) {
            const uint32_t cn = (colCount_ - c0) < s_.colTile ? (colCount_ - c0) : s_.colTile;
            const uint32_t stride = (cn + EPB - 1) / EPB * EPB;  // UB row pitch (32-byte padded)
            uint32_t rowTile = s_.tileElems / stride;
            rowTile = rowTile < kMaxBurstRows ? rowTile : kMaxBurstRows;
            for (uint32_t r0 = 0; r0 < rowCount_; r0 += rowTile) {
                const uint32_t rn = (rowCount_ - r0) < rowTile ? (rowCount_ - r0) : rowTile;
                const uint32_t row = rowStart_ + r0;
                const uint32_t col = colStart_ + c0;
                CopyIn(row, col, rn, cn);
                Compute(rn * stride);
                CopyOut(row, col, rn, cn);
            }
        }
    }

private:
    static constexpr uint32_t EPB = kBlockBytes / sizeof(T);

    __aicore__ static inline bool Split(uint32_t mask, uint32_t i) { return ((mask >> i) & 1U) != 0; }

    __aicore__ inline uint64_t Offset(bool split, uint32_t plane, uint32_t row, uint32_t col) const
    {
        const uint64_t pitch = static_cast<uint64_t>(s_.cols) * (split ? K : 1);
        return row * pitch + static_cast<uint64_t>(plane) * s_.cols + col;
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t col, uint32_t rn, uint32_t cn)
    {
        for (uint32_t i = 0; i < Op::IN; ++i) {
            const bool split = Split(Op::IN_SPLIT, i);
            const uint32_t pitch = s_.cols * (split ? K : 1);
            DataCopyExtParams params{static_cast<uint16_t>(rn), static_cast<uint32_t>(cn * sizeof(T)),
                                     static_cast<uint32_t>((pitch - cn) * sizeof(T)), 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            LocalTensor<T> local = inQ_[i].template AllocTensor<T>();
            for (uint32_t p = 0; p < (split ? K : 1U); ++p) {
                DataCopyPad(local[p * s_.tileElems], inGm_[i][Offset(split, p, row, col)], params, pad);
            }
            inQ_[i].EnQue(local);
        }
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> inLocal[Op::IN];
        LocalTensor<T> outLocal[Op::OUT];
        LocalTensor<float> inF[IN_PLANES];
        LocalTensor<float> outF[OUT_PLANES];
        LocalTensor<float> tmp[Op::TMP + 1];
        uint32_t calcPlane = 0;
        LocalTensor<float> calcAll;
        if constexpr (CALC_PLANES > 0) {
            calcAll = calc_.template Get<float>();
        }
        uint32_t plane = 0;
        for (uint32_t i = 0; i < Op::IN; ++i) {
            inLocal[i] = inQ_[i].template DeQue<T>();
            for (uint32_t p = 0; p < (Split(Op::IN_SPLIT, i) ? K : 1U); ++p, ++plane) {
                if constexpr (CAST) {
                    inF[plane] = calcAll[(calcPlane++) * s_.tileElems];
                    Cast(inF[plane], inLocal[i][p * s_.tileElems], RoundMode::CAST_NONE, n);
                } else {
                    inF[plane] = inLocal[i][p * s_.tileElems];
                }
            }
        }
        plane = 0;
        for (uint32_t i = 0; i < Op::OUT; ++i) {
            outLocal[i] = outQ_[i].template AllocTensor<T>();
            for (uint32_t p = 0; p < (Split(Op::OUT_SPLIT, i) ? K : 1U); ++p, ++plane) {
                if constexpr (CAST) {
                    outF[plane] = calcAll[(calcPlane++) * s_.tileElems];
                } else {
                    outF[plane] = outLocal[i][p * s_.tileElems];
                }
            }
        }
        for (uint32_t t = 0; t < Op::TMP; ++t) {
            tmp[t] = calcAll[(calcPlane++) * s_.tileElems];
        }
        op_(inF, outF, tmp, n);
        plane = 0;
        for (uint32_t i = 0; i < Op::OUT; ++i) {
            for (uint32_t p = 0; p < (Split(Op::OUT_SPLIT, i) ? K : 1U); ++p, ++plane) {
                if constexpr (CAST) {
                    Cast(outLocal[i][p * s_.tileElems], outF[plane], RoundMode::CAST_RINT, n);
                }
            }
            outQ_[i].EnQue(outLocal[i]);
        }
        for (uint32_t i = 0; i < Op::IN; ++i) {
            inQ_[i].FreeTensor(inLocal[i]);
        }
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t col, uint32_t rn, uint32_t cn)
    {
        for (uint32_t i = 0; i < Op::OUT; ++i) {
            const bool split = Split(Op::OUT_SPLIT, i);
            const uint32_t pitch = s_.cols * (split ? K : 1);
            DataCopyExtParams params{static_cast<uint16_t>(rn), static_cast<uint32_t>(cn * sizeof(T)), 0,
                                     static_cast<uint32_t>((pitch - cn) * sizeof(T)), 0};
            LocalTensor<T> local = outQ_[i].template DeQue<T>();
            for (uint32_t p = 0; p < (split ? K : 1U); ++p) {
                DataCopyPad(outGm_[i][Offset(split, p, row, col)], local[p * s_.tileElems], params);
            }
            outQ_[i].FreeTensor(local);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, kBufferNum> inQ_[Op::IN];
    TQue<QuePosition::VECOUT, kBufferNum> outQ_[Op::OUT];
    TBuf<QuePosition::VECCALC> calc_;
    GlobalTensor<T> inGm_[Op::IN];
    GlobalTensor<T> outGm_[Op::OUT];
    EltShape s_{};
    Op op_{};
    uint32_t rowStart_ = 0;
    uint32_t rowCount_ = 0;
    uint32_t colStart_ = 0;
    uint32_t colCount_ = 0;
};

// Runs `Op` over the tensors: the entry point of every solution using this base.
template <typename T, class Op>
__aicore__ inline void RunElementwise(GM_ADDR const* in, GM_ADDR const* out, const EltShape& shape, const Op& op)
{
    Elementwise<T, Op> kernel;
    kernel.Init(in, out, shape, op);
    kernel.Process();
}

}  // namespace activation_kernels

#endif  // ACTIVATION_KERNEL_H
