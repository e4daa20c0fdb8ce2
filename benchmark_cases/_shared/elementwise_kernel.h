// elementwise_kernel.h -- kernel base shared by the level-1 elementwise solutions (math, comparison,
// condition operators).
//
// Work split (host: elementwise_host_tiling.h): the flat element range is cut into 256-element units; the
// first `bigCoreNum` cores take `unitsPerCore + 1` units, the others `unitsPerCore`. Each core walks
// its range in tiles of `tileLength` elements through double-buffered queues (MTE2 / vector / MTE3
// overlap); tails are moved with DataCopyPad so no byte outside the tensors is touched.
//
// An operator supplies a functor `Op` with
//   void operator()(const LocalTensor<TO>& y, const LocalTensor<TI>* x, const Ctx& c) const;
// `x` lists the NIN input tiles (the functor may overwrite them), `y` is the output tile; `c.n` is the
// tile's element count and `c.nAligned` that count rounded up to 256 elements (what instructions that
// work on whole 256-byte repeats, such as Compare, need: the padding lanes hold don't-care values).
// `c.Plane<U>(i)` is the i-th float32-sized scratch plane (host: calcBytes = 4 * planes).
#ifndef ELEMENTWISE_KERNEL_H
#define ELEMENTWISE_KERNEL_H

#include "kernel_operator.h"

namespace elementwise_kernels {
using namespace AscendC;

constexpr int32_t kBufferNum = 2;
constexpr uint32_t kUnit = 256;

struct Ctx {
    LocalTensor<uint8_t> calc;
    uint32_t tile;
    uint32_t n;
    uint32_t nAligned;

    template <typename U>
    __aicore__ inline LocalTensor<U> Plane(uint32_t i) const
    {
        return calc[i * tile * sizeof(float)].template ReinterpretCast<U>();
    }
};

// float32 view of a tile: the tile itself for float, else its Cast into scratch plane `plane`.
template <typename T>
__aicore__ inline LocalTensor<float> ToFloat(const LocalTensor<T>& src, const Ctx& c, uint32_t plane)
{
    if constexpr (std::is_same_v<T, float>) {
        return src;
    } else {
        LocalTensor<float> f = c.Plane<float>(plane);
        Cast(f, src, RoundMode::CAST_NONE, c.n);
        return f;
    }
}

// Where a float32 result for output `y` should be computed: `y` itself for float, else plane `plane`.
template <typename T>
__aicore__ inline LocalTensor<float> FloatOut(const LocalTensor<T>& y, const Ctx& c, uint32_t plane)
{
    if constexpr (std::is_same_v<T, float>) {
        return y;
    } else {
        return c.Plane<float>(plane);
    }
}

// Store a float32 result computed in FloatOut(y, ...) into y (round to nearest even).
template <typename T>
__aicore__ inline void StoreFloat(const LocalTensor<T>& y, const LocalTensor<float>& f, const Ctx& c)
{
    if constexpr (!std::is_same_v<T, float>) {
        Cast(y, f, RoundMode::CAST_RINT, c.n);
    }
}

// 0/1 bytes from a Compare bit mask: select 1.0/0.0 in half, then convert to uint8.
__aicore__ inline void MaskToBool(const LocalTensor<uint8_t>& y, const LocalTensor<uint8_t>& mask, const Ctx& c,
                                  uint32_t plane)
{
    LocalTensor<half> ones = c.Plane<half>(plane);
    LocalTensor<half> sel = ones[c.tile];
    Duplicate(ones, static_cast<half>(1.0f), c.nAligned);
    Select(sel, mask, ones, static_cast<half>(0.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, c.nAligned);
    Cast(y, sel, RoundMode::CAST_NONE, c.nAligned);
}

// Comparison operators (Equal, Less, LessEqual): Compare over whole 256-byte repeats -> 0/1 bytes.
// Planes: bfloat16 is widened into planes 0 and 1, the mask and the 0/1 selection use the next two.
template <CMPMODE MODE>
struct CompareOp {
    template <typename T>
    __aicore__ inline void operator()(const LocalTensor<uint8_t>& y, const LocalTensor<T>* x, const Ctx& c) const
    {
        if constexpr (std::is_same_v<T, bfloat16_t>) {
            LocalTensor<float> a = c.Plane<float>(0);
            LocalTensor<float> b = c.Plane<float>(1);
            Cast(a, x[0], RoundMode::CAST_NONE, c.nAligned);
            Cast(b, x[1], RoundMode::CAST_NONE, c.nAligned);
            LocalTensor<uint8_t> mask = c.Plane<uint8_t>(2);
            Compare(mask, a, b, MODE, c.nAligned);
            MaskToBool(y, mask, c, 3);
        } else {
            LocalTensor<uint8_t> mask = c.Plane<uint8_t>(0);
            Compare(mask, x[0], x[1], MODE, c.nAligned);
            MaskToBool(y, mask, c, 1);
        }
    }
};

template <typename TI, typename TO, uint32_t NIN, class Op>
class Elementwise {
public:
    __aicore__ inline Elementwise(const Op& op) : op_(op) {}

    __aicore__ inline void Init(GM_ADDR const* in, GM_ADDR out, uint32_t totalLength, uint32_t unitsPerCore,
                                uint32_t bigCoreNum, uint32_t tileLength, uint32_t calcBytes)
    {
        const uint32_t idx = GetBlockIdx();
        const uint64_t units = unitsPerCore + (idx < bigCoreNum ? 1 : 0);
        const uint64_t start = (uint64_t(idx) * unitsPerCore + (idx < bigCoreNum ? idx : bigCoreNum)) * kUnit;
        uint64_t end = start + units * kUnit;
        end = end < totalLength ? end : totalLength;
        length_ = end > start ? static_cast<uint32_t>(end - start) : 0;
        tile_ = tileLength;
        for (uint32_t i = 0; i < NIN; ++i) {
            inGm_[i].SetGlobalBuffer(reinterpret_cast<__gm__ TI*>(in[i]) + start, length_);
            pipe_.InitBuffer(inQ_[i], kBufferNum, tile_ * sizeof(TI));
        }
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ TO*>(out) + start, length_);
        pipe_.InitBuffer(outQ_, kBufferNum, tile_ * sizeof(TO));
        if (calcBytes > 0) {
            pipe_.InitBuffer(calcBuf_, tile_ * calcBytes);
        }
        hasCalc_ = calcBytes > 0;
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = (length_ + tile_ - 1) / tile_;
        for (uint32_t t = 0; t < tiles; ++t) {
            const uint32_t n = (t == tiles - 1) ? length_ - t * tile_ : tile_;
            CopyIn(t, n);
            Compute(n);
            CopyOut(t, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t t, uint32_t n)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(TI)), 0, 0, 0};
        DataCopyPadExtParams<TI> pad{false, 0, 0, 0};
        for (uint32_t i = 0; i < NIN; ++i) {
            LocalTensor<TI> x = inQ_[i].template AllocTensor<TI>();
            DataCopyPad(x, inGm_[i][uint64_t(t) * tile_], params, pad);
            inQ_[i].EnQue(x);
        }
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<TI> x[NIN];
        for (uint32_t i = 0; i < NIN; ++i) {
            x[i] = inQ_[i].template DeQue<TI>();
        }
        LocalTensor<TO> y = outQ_.template AllocTensor<TO>();
        Ctx c;
        if (hasCalc_) {
            c.calc = calcBuf_.template Get<uint8_t>();
        }
        c.tile = tile_;
        c.n = n;
        c.nAligned = (n + kUnit - 1) / kUnit * kUnit;
        op_(y, x, c);
        outQ_.EnQue(y);
        for (uint32_t i = 0; i < NIN; ++i) {
            inQ_[i].FreeTensor(x[i]);
        }
    }

    __aicore__ inline void CopyOut(uint32_t t, uint32_t n)
    {
        LocalTensor<TO> y = outQ_.template DeQue<TO>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(TO)), 0, 0, 0};
        DataCopyPad(outGm_[uint64_t(t) * tile_], y, params);
        outQ_.FreeTensor(y);
    }

    Op op_;
    TPipe pipe_;
    TQue<QuePosition::VECIN, kBufferNum> inQ_[NIN];
    TQue<QuePosition::VECOUT, kBufferNum> outQ_;
    TBuf<QuePosition::VECCALC> calcBuf_;
    GlobalTensor<TI> inGm_[NIN];
    GlobalTensor<TO> outGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
    bool hasCalc_ = false;
};

// Runs `op` over the tensors described by an L1EltTilingData `t`.
template <typename TI, typename TO, uint32_t NIN, class Op, class Tiling>
__aicore__ inline void Run(const Op& op, GM_ADDR const* in, GM_ADDR out, const Tiling& t)
{
    Elementwise<TI, TO, NIN, Op> kernel(op);
    kernel.Init(in, out, t.totalLength, t.unitsPerCore, t.bigCoreNum, t.tileLength, t.calcBytes);
    kernel.Process();
}
}  // namespace elementwise_kernels
#endif  // ELEMENTWISE_KERNEL_H
