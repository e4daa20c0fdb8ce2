// optimizer_kernel.h -- kernel base shared by the level-2 optimizer solutions (ApplyAdamWV2,
// ApplyFusedEmaAdam): a fused elementwise update of several same-shaped tensors, some of them
// updated in place.
//
// The flat element range is split over the vector cores in 32-byte blocks (big cores take one
// extra block); each core streams its range in tiles of tileLength elements: one DataCopyPad per
// tensor in, the update in float32, one DataCopyPad per updated tensor out. Queues are
// double-buffered so loads, compute and stores of neighbouring tiles overlap. Updated tensors are
// written through the output addresses (which alias the inputs for in-place operators): every tile
// is read completely before it is written, and tiles never overlap, so the aliasing is safe.
//
// An operator supplies a functor `Op` with
//   static constexpr uint32_t N;      tensors streamed in (float32 copies handed to the functor)
//   static constexpr uint32_t NOUT;   tensors written back: the functor's results in t[0..NOUT)
//   static constexpr uint32_t TMP;    float32 scratch tensors
//   void operator()(const LocalTensor<float>* t, const LocalTensor<float>* tmp, uint32_t n) const;
// The functor updates t[0..NOUT) in place.
#ifndef OPTIMIZER_KERNEL_H
#define OPTIMIZER_KERNEL_H

#include "kernel_operator.h"

namespace optimizer_kernels {
using namespace AscendC;

constexpr int32_t kOptimBuf = 2;
constexpr uint32_t kOptimMaxTensors = 6;

struct OptimRange {
    uint64_t totalLength;
    uint32_t bigCoreNum;
    uint32_t blocksPerCore;
    uint32_t tileLength;
};

template <typename T, class Op>
class OptimUpdate {
public:
    __aicore__ inline OptimUpdate() {}

    __aicore__ inline void Init(GM_ADDR const* in, GM_ADDR const* out, const OptimRange& range)
    {
        constexpr uint32_t epb = 32 / sizeof(T);
        const uint32_t idx = GetBlockIdx();
        const uint64_t myBlocks = range.blocksPerCore + (idx < range.bigCoreNum ? 1 : 0);
        const uint64_t startBlock =
            uint64_t(idx) * range.blocksPerCore + (idx < range.bigCoreNum ? idx : range.bigCoreNum);
        const uint64_t start = startBlock * epb;
        uint64_t end = start + myBlocks * epb;
        end = end > range.totalLength ? range.totalLength : end;
        length = end > start ? end - start : 0;
        tileLength = range.tileLength;
        for (uint32_t k = 0; k < Op::N; ++k) {
            inGm[k].SetGlobalBuffer((__gm__ T*)in[k] + start, length);
            pipe.InitBuffer(inQ[k], kOptimBuf, tileLength * sizeof(T));
        }
        for (uint32_t k = 0; k < Op::NOUT; ++k) {
            outGm[k].SetGlobalBuffer((__gm__ T*)out[k] + start, length);
            pipe.InitBuffer(outQ[k], kOptimBuf, tileLength * sizeof(T));
        }
        const uint32_t floatTensors = (std::is_same_v<T, float> ? 0 : Op::N) + Op::TMP;
        pipe.InitBuffer(calcBuf, (floatTensors > 0 ? floatTensors : 1) * tileLength * sizeof(float));
    }

    __aicore__ inline void Process(const Op& op)
    {
        const uint64_t tiles = (length + tileLength - 1) / tileLength;
        for (uint64_t i = 0; i < tiles; ++i) {
            const uint32_t count = static_cast<uint32_t>(i == tiles - 1 ? length - i * tileLength : tileLength);
            CopyIn(i * tileLength, count);
            Compute(op, count);
            CopyOut(i * tileLength, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint32_t count)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t k = 0; k < Op::N; ++k) {
            LocalTensor<T> l = inQ[k].template AllocTensor<T>();
            DataCopyPad(l, inGm[k][offset], p, pad);
            inQ[k].EnQue(l);
        }
    }

    __aicore__ inline void Compute(const Op& op, uint32_t count)
    {
        // Whole vector repeats: the padding lanes are computed but never stored.
        const uint32_t n = (count + 63) / 64 * 64 < tileLength ? (count + 63) / 64 * 64 : tileLength;
        LocalTensor<T> in[Op::N];
        LocalTensor<float> t[Op::N];
        LocalTensor<float> tmp[Op::TMP > 0 ? Op::TMP : 1];
        LocalTensor<float> calc = calcBuf.Get<float>();
        uint32_t slot = 0;
        for (uint32_t k = 0; k < Op::N; ++k) {
            in[k] = inQ[k].template DeQue<T>();
            if constexpr (std::is_same_v<T, float>) {
                t[k] = in[k];
            } else {
                t[k] = calc[slot++ * tileLength];
                Cast(t[k], in[k], RoundMode::CAST_NONE, n);
            }
        }
        for (uint32_t k = 0; k < Op::TMP; ++k) {
            tmp[k] = calc[slot++ * tileLength];
        }
        op(t, tmp, n);
        for (uint32_t k = 0; k < Op::NOUT; ++k) {
            LocalTensor<T> o = outQ[k].template AllocTensor<T>();
            if constexpr (std::is_same_v<T, float>) {
                Adds(o, t[k], 0.0f, n);
            } else {
                Cast(o, t[k], RoundMode::CAST_RINT, n);
            }
            outQ[k].EnQue(o);
        }
        for (uint32_t k = 0; k < Op::N; ++k) {
            inQ[k].FreeTensor(in[k]);
        }
    }

    __aicore__ inline void CopyOut(uint64_t offset, uint32_t count)
    {
        DataCopyExtParams p{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        for (uint32_t k = 0; k < Op::NOUT; ++k) {
            LocalTensor<T> o = outQ[k].template DeQue<T>();
            DataCopyPad(outGm[k][offset], o, p);
            outQ[k].FreeTensor(o);
        }
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, kOptimBuf> inQ[Op::N];
    TQue<QuePosition::VECOUT, kOptimBuf> outQ[Op::NOUT];
    TBuf<QuePosition::VECCALC> calcBuf;
    GlobalTensor<T> inGm[Op::N], outGm[Op::NOUT];
    uint64_t length = 0;
    uint32_t tileLength = 0;
};

// base^e for a non-negative integer step, by repeated squaring on the scalar unit.
__aicore__ inline float PowStep(float base, int64_t e)
{
    float result = 1.0f;
    float b = base;
    while (e > 0) {
        if (e & 1) {
            result *= b;
        }
        b *= b;
        e >>= 1;
    }
    return result;
}
}  // namespace optimizer_kernels

#endif  // OPTIMIZER_KERNEL_H
