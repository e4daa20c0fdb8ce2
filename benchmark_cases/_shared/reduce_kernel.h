// reduce_kernel.h -- kernel base of the level-1 global reductions (Sasum, Snrm2, Isamax, Isamin, Icamax,
// Icamin, NonFiniteCheckOp).
//
// Every core reduces its share of x (256-element units, the first `bigCoreNum` cores take one unit
// more) tile by tile through a double-buffered queue into one partial result (value, index). The
// partials go to a 32-byte slot per core in the user workspace; after SyncAll core 0 loads all the
// slots in one DataCopy, combines them in core order (so ties keep the smallest index) and writes y.
//
// An operator `Op` provides:
//   static constexpr uint32_t PLANES;                       float32 scratch planes per tile element
//   void Setup(const Scratch& s) const;                     once per core, before the first tile
//   Partial Identity() const;
//   Partial Tile(const LocalTensor<T>& x, const Scratch& s, uint32_t n, uint32_t first) const;
//   Partial Combine(const Partial& a, const Partial& b) const;     (a comes from lower indices)
//   void Store(const LocalTensor<float>& out, const Partial& p) const;  writes y's bytes into out
// `first` is the global element index of x[0]; Tile may overwrite x.
#ifndef REDUCE_KERNEL_H
#define REDUCE_KERNEL_H

#include "kernel_operator.h"

namespace reduce_kernels {
using namespace AscendC;

constexpr int32_t kBufferNum = 2;
constexpr uint32_t kUnit = 256;
constexpr uint32_t kSlotFloats = 8;  // one 32-byte workspace slot per core
constexpr uint32_t kRedFloats = 4096;  // reduction work area (host: reduce_host_tiling.h reserves it)

struct Partial {
    float value;
    uint32_t index;
};

struct Scratch {
    LocalTensor<float> calc;  // PLANES planes of `tile` floats
    LocalTensor<float> red;   // reduction result (red[0..63]) and work area (red[64..])
    uint32_t tile;

    __aicore__ inline LocalTensor<float> Plane(uint32_t i) const { return calc[i * tile]; }
};

// Scalar reads of vector results need the vector pipe to have finished.
__aicore__ inline void VectorToScalar() { PipeBarrier<PIPE_ALL>(); }

template <typename T, class Op>
class Reduce {
public:
    __aicore__ inline Reduce(const Op& op) : op_(op) {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, uint32_t totalLength, uint32_t unitsPerCore,
                                uint32_t bigCoreNum, uint32_t tileLength)
    {
        const uint32_t idx = GetBlockIdx();
        const uint64_t units = unitsPerCore + (idx < bigCoreNum ? 1 : 0);
        start_ = (uint64_t(idx) * unitsPerCore + (idx < bigCoreNum ? idx : bigCoreNum)) * kUnit;
        uint64_t end = start_ + units * kUnit;
        end = end < totalLength ? end : totalLength;
        length_ = end > start_ ? static_cast<uint32_t>(end - start_) : 0;
        tile_ = tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + start_, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), 1);
        slotGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(GetUserWorkspace(workspace)),
                                GetBlockNum() * kSlotFloats);
        pipe_.InitBuffer(inQ_, kBufferNum, tile_ * sizeof(T));
        pipe_.InitBuffer(calcBuf_, tile_ * Op::PLANES * sizeof(float) + 32);
        pipe_.InitBuffer(redBuf_, kRedFloats * sizeof(float));
        pipe_.InitBuffer(slotBuf_, 48 * kSlotFloats * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        Scratch s{calcBuf_.Get<float>(), redBuf_.Get<float>(), tile_};
        op_.Setup(s);
        Partial p = op_.Identity();
        const uint32_t tiles = (length_ + tile_ - 1) / tile_;
        for (uint32_t t = 0; t < tiles; ++t) {
            const uint32_t n = (t == tiles - 1) ? length_ - t * tile_ : tile_;
            LocalTensor<T> x = inQ_.AllocTensor<T>();
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> pad{false, 0, 0, 0};
            DataCopyPad(x, xGm_[uint64_t(t) * tile_], params, pad);
            inQ_.EnQue(x);
            x = inQ_.DeQue<T>();
            p = op_.Combine(p, op_.Tile(x, s, n, static_cast<uint32_t>(start_ + uint64_t(t) * tile_)));
            inQ_.FreeTensor(x);
        }
        Publish(p);
        SyncAll();
        if (GetBlockIdx() == 0) {
            Gather();
        }
    }

private:
    // This core's partial -> its workspace slot.
    __aicore__ inline void Publish(const Partial& p)
    {
        LocalTensor<float> slot = slotBuf_.Get<float>();
        slot.SetValue(0, p.value);
        slot.ReinterpretCast<uint32_t>().SetValue(1, p.index);
        PipeBarrier<PIPE_ALL>();
        DataCopy(slotGm_[GetBlockIdx() * kSlotFloats], slot, kSlotFloats);
        PipeBarrier<PIPE_ALL>();
    }

    // Core 0: every slot -> UB in one copy, combine in core order, write y.
    __aicore__ inline void Gather()
    {
        const uint32_t cores = GetBlockNum();
        LocalTensor<float> slots = slotBuf_.Get<float>();
        DataCopy(slots, slotGm_, cores * kSlotFloats);
        PipeBarrier<PIPE_ALL>();
        Partial p = op_.Identity();
        for (uint32_t c = 0; c < cores; ++c) {
            Partial q{slots.GetValue(c * kSlotFloats), slots.ReinterpretCast<uint32_t>().GetValue(c * kSlotFloats + 1)};
            p = op_.Combine(p, q);
        }
        LocalTensor<float> out = redBuf_.Get<float>();
        op_.Store(out, p);
        PipeBarrier<PIPE_ALL>();
        DataCopyExtParams params{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm_, out, params);
    }

    Op op_;
    TPipe pipe_;
    TQue<QuePosition::VECIN, kBufferNum> inQ_;
    TBuf<QuePosition::VECCALC> calcBuf_;
    TBuf<QuePosition::VECCALC> redBuf_;
    TBuf<QuePosition::VECCALC> slotBuf_;
    GlobalTensor<T> xGm_;
    GlobalTensor<float> yGm_;
    GlobalTensor<float> slotGm_;
    uint64_t start_ = 0;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

template <typename T, class Op, class Tiling>
__aicore__ inline void Run(const Op& op, GM_ADDR x, GM_ADDR y, GM_ADDR workspace, const Tiling& t)
{
    Reduce<T, Op> kernel(op);
    kernel.Init(x, y, workspace, t.totalLength, t.unitsPerCore, t.bigCoreNum, t.tileLength);
    kernel.Process();
}

// Argmax/argmin of a float plane `a` of n values, as (value, global 1-based index) of the first extreme.
template <bool IS_MAX>
__aicore__ inline Partial ArgExtreme(const LocalTensor<float>& a, const Scratch& s, uint32_t n, uint32_t first)
{
    if constexpr (IS_MAX) {
        ReduceMax(s.red, a, s.red[64], n, true);
    } else {
        ReduceMin(s.red, a, s.red[64], n, true);
    }
    VectorToScalar();
    return Partial{s.red.GetValue(0), first + s.red.ReinterpretCast<uint32_t>().GetValue(1) + 1};
}

template <bool IS_MAX>
__aicore__ inline Partial ArgCombine(const Partial& a, const Partial& b)
{
    if (a.index == 0) {
        return b;
    }
    if (b.index == 0) {
        return a;
    }
    const bool takeB = IS_MAX ? (b.value > a.value) : (b.value < a.value);
    return takeB ? b : a;  // equal values keep a: the smaller index
}

// y (int32) = the 1-based index.
__aicore__ inline void StoreIndex(const LocalTensor<float>& out, const Partial& p)
{
    out.ReinterpretCast<int32_t>().SetValue(0, static_cast<int32_t>(p.index));
}

// BLAS isamax / isamin: |x| per tile, then the first extreme with its index.
template <bool IS_MAX>
struct RealArgOp {
    static constexpr uint32_t PLANES = 0;
    __aicore__ inline void Setup(const Scratch&) const {}
    __aicore__ inline Partial Identity() const { return {0.0f, 0}; }
    __aicore__ inline Partial Tile(const LocalTensor<float>& x, const Scratch& s, uint32_t n, uint32_t first) const
    {
        Abs(x, x, n);
        return ArgExtreme<IS_MAX>(x, s, n, first);
    }
    __aicore__ inline Partial Combine(const Partial& a, const Partial& b) const { return ArgCombine<IS_MAX>(a, b); }
    __aicore__ inline void Store(const LocalTensor<float>& out, const Partial& p) const { StoreIndex(out, p); }
};

// BLAS icamax / icamin on interleaved complex64 (a tile of 2m floats holds m complex values): Abs on
// all floats, |re| and |im| planes by two Gathers (byte-offset tables of the even and odd floats, built
// once per core), one Add, then the first extreme with its index.
constexpr uint32_t kComplexArgPlanes = 3;  // |re| + |im| (first half) / |im| (second half), two tables

template <bool IS_MAX>
struct ComplexArgOp {
    static constexpr uint32_t PLANES = kComplexArgPlanes;
    __aicore__ inline void Setup(const Scratch& s) const
    {
        // even[k] = 8k bytes, odd[k] = 8k + 4 bytes: 8 by scalar writes, then doubling.
        LocalTensor<int32_t> even = s.Plane(1).ReinterpretCast<int32_t>();
        LocalTensor<int32_t> odd = s.Plane(2).ReinterpretCast<int32_t>();
        for (int32_t k = 0; k < 8; ++k) {
            even.SetValue(k, 8 * k);
            odd.SetValue(k, 8 * k + 4);
        }
        PipeBarrier<PIPE_ALL>();
        const uint32_t half = s.tile / 2;
        for (uint32_t len = 8; len < half; len *= 2) {
            const uint32_t count = len < half - len ? len : half - len;
            Adds(even[len], even, static_cast<int32_t>(8 * len), count);
            Adds(odd[len], odd, static_cast<int32_t>(8 * len), count);
            PipeBarrier<PIPE_V>();
        }
    }
    __aicore__ inline Partial Identity() const { return {0.0f, 0}; }
    __aicore__ inline Partial Tile(const LocalTensor<float>& x, const Scratch& s, uint32_t n, uint32_t first) const
    {
        const uint32_t m = n / 2;
        Abs(x, x, n);
        LocalTensor<float> mag = s.Plane(0);
        LocalTensor<float> im = s.Plane(0)[s.tile / 2];
        Gather(mag, x, s.Plane(1).ReinterpretCast<uint32_t>(), 0, m);
        Gather(im, x, s.Plane(2).ReinterpretCast<uint32_t>(), 0, m);
        Add(mag, mag, im, m);
        return ArgExtreme<IS_MAX>(mag, s, m, first / 2);
    }
    __aicore__ inline Partial Combine(const Partial& a, const Partial& b) const { return ArgCombine<IS_MAX>(a, b); }
    __aicore__ inline void Store(const LocalTensor<float>& out, const Partial& p) const { StoreIndex(out, p); }
};
}  // namespace reduce_kernels
#endif  // REDUCE_KERNEL_H
