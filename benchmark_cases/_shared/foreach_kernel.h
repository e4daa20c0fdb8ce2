// foreach_kernel.h -- kernel base shared by the level-2 Foreach solutions.
//
// A Foreach operator applies one elementwise function to every tensor of one or more paired tensor
// lists (DYNAMIC inputs: each argument is a list descriptor read with ListTensorDesc). Work is
// balanced on the total element count, not per tensor: the lists are seen as one concatenation of
// 32-byte blocks (each tensor padded to whole blocks, so every core starts on an aligned address),
// the blocks are split evenly over the cores (the first `bigCoreNum` cores take one more), and a core
// walks the segments of the tensors its block range covers. Inside a segment it streams UB tiles with
// double-buffered queues (CopyIn / Compute / CopyOut overlap). float16 / bfloat16 data are cast to
// float32 for the computation and rounded back once.
//
// An operator is a small functor on top of OpBase (no scalar), ScalarBase (one scalar `s`, read
// once) or ScalarListBase (`s` = scalars[t] while tensor t streams); Lists<Base, N> sets the number
// of lists streamed:
//   struct MyOp : foreach::Lists<foreach::ScalarBase, 2> {
//       static constexpr uint32_t TMP = 0;    // float32 scratch planes (OpBase: 0)
//       static constexpr bool OUT = true;     // writes an output list (false: reduce only)
//       FOREACH_COMPUTE { ... }               // in[k], out: float32 tiles of n elements; in[] may be
//   };                                        // overwritten; tmp[TMP] scratch planes
// Optional hooks: Load(GM_ADDR) (the scalar argument), SetTensor(t) before and EndSegment(t) after
// each segment of tensor t (reductions). A kernel entry is then one line:
//   foreach::RunLists<DTYPE_X1, MyOp>({x1, x2}, y, tiling, scalar);
// The host side (foreach_tiling.h) sizes the tiles from the same IN / TMP numbers.
#ifndef FOREACH_KERNEL_H
#define FOREACH_KERNEL_H

#include "kernel_operator.h"

namespace foreach {
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t MAX_LISTS = 3;
constexpr uint32_t MAX_RANK = 8;

// The split computed by the host (ForeachTilingData).
struct Split {
    uint32_t tensorNum;
    uint32_t blocksPerCore;
    uint32_t bigCoreNum;
    uint32_t tileLength;
};

// A host-side scalar handed over as a 1-element (or, for scalar lists, n-element) float32 tensor.
__aicore__ inline float ReadScalar(GM_ADDR scalar, uint32_t index = 0)
{
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(scalar), index + 1);
    return g.GetValue(index);
}

struct OpBase {
    static constexpr uint32_t IN = 1;
    static constexpr uint32_t TMP = 0;
    static constexpr bool OUT = true;
    __aicore__ inline void Load(GM_ADDR) {}           // the operator's scalar argument, if any
    __aicore__ inline void SetTensor(uint32_t) {}
    __aicore__ inline void EndSegment(uint32_t) {}
};

// Operators with one scalar `s` (a 1-element float32 tensor, read once per core).
struct ScalarBase : OpBase {
    float s = 0.0f;
    __aicore__ inline void Load(GM_ADDR scalar) { s = ReadScalar(scalar); }
};

// Operators with a scalar list: `s` is scalars[t] while tensor t is streamed.
struct ScalarListBase : OpBase {
    GM_ADDR scalars = nullptr;
    float s = 0.0f;
    __aicore__ inline void Load(GM_ADDR list) { scalars = list; }
    __aicore__ inline void SetTensor(uint32_t t) { s = ReadScalar(scalars, t); }
};

// An operator streaming N lists, on top of OpBase, ScalarBase or ScalarListBase.
template <class S, uint32_t N>
struct Lists : S {
    static constexpr uint32_t IN = N;
};

// x1 + s * x2 (op) x3, the addcmul / addcdiv family; S is ScalarBase or ScalarListBase.
template <class S, bool DIV>
struct AddcOp : S {
    static constexpr uint32_t IN = 3;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>*, uint32_t n) const
    {
        if constexpr (DIV) {
            Div(in[1], in[1], in[2], n);
        } else {
            Mul(in[1], in[1], in[2], n);
        }
        Muls(in[1], in[1], this->s, n);
        Add(out, in[0], in[1], n);
    }
};

// Element count of tensor `t` of a list.
template <typename T>
__aicore__ inline uint64_t TensorLength(ListTensorDesc& list, uint32_t t)
{
    uint64_t dims[MAX_RANK];
    TensorDesc<T> desc;
    desc.SetShapeAddr(dims);
    list.GetDesc(desc, t);
    uint64_t n = 1;
    for (uint32_t d = 0; d < desc.GetDim(); ++d) {
        n *= desc.GetShape(d);
    }
    return n;
}

// Calls f(t, offset, count) for every tensor segment of this core's block range, in order.
template <typename T, typename F>
__aicore__ inline void ForEachSegment(ListTensorDesc& list, const Split& s, F&& f)
{
    constexpr uint32_t perBlock = BLOCK_BYTES / sizeof(T);
    const uint64_t idx = GetBlockIdx();
    const uint64_t begin = idx * s.blocksPerCore + (idx < s.bigCoreNum ? idx : s.bigCoreNum);
    const uint64_t end = begin + s.blocksPerCore + (idx < s.bigCoreNum ? 1 : 0);
    uint64_t first = 0;  // global index of the tensor's first block
    for (uint32_t t = 0; t < s.tensorNum && first < end; ++t) {
        const uint64_t len = TensorLength<T>(list, t);
        const uint64_t blocks = (len + perBlock - 1) / perBlock;
        const uint64_t lo = begin > first ? begin : first;
        const uint64_t hi = end < first + blocks ? end : first + blocks;
        if (lo < hi) {
            const uint64_t offset = (lo - first) * perBlock;
            const uint64_t stop = (hi - first) * perBlock < len ? (hi - first) * perBlock : len;
            f(t, offset, stop - offset);
        }
        first += blocks;
    }
}

template <typename T, class Op>
class ListKernel {
public:
    static constexpr bool CAST = !std::is_same_v<T, float>;
    static constexpr uint32_t IN_PLANES = Op::IN > 0 ? Op::IN : 1;

    __aicore__ inline ListKernel() {}

    // `inLists[k]` are the Op::IN list descriptors read, `outList` the output list (may alias an input).
    __aicore__ inline void Init(GM_ADDR const* inLists, GM_ADDR outList, const Split& split)
    {
        split_ = split;
        for (uint32_t k = 0; k < Op::IN; ++k) {
            inDesc_[k].Init(inLists[k]);
        }
        walkDesc_.Init(Op::IN > 0 ? inLists[0] : outList);
        if constexpr (Op::OUT) {
            outDesc_.Init(outList);
        }
        const uint32_t tile = split.tileLength;
        for (uint32_t k = 0; k < Op::IN; ++k) {
            pipe_.InitBuffer(inQue_[k], BUFFER_NUM, tile * sizeof(T));
        }
        if constexpr (Op::OUT) {
            pipe_.InitBuffer(outQue_, BUFFER_NUM, tile * sizeof(T));
        }
        // float32 planes: the inputs and the output when casting, then the operator's scratch.
        const uint32_t planes = (CAST ? Op::IN + 1 : 0) + Op::TMP;
        if (planes > 0) {
            pipe_.InitBuffer(calcBuf_, planes * tile * sizeof(float));
        }
    }

    __aicore__ inline void Process(Op& op)
    {
        ForEachSegment<T>(walkDesc_, split_, [&](uint32_t t, uint64_t offset, uint64_t count) {
            for (uint32_t k = 0; k < Op::IN; ++k) {
                inGm_[k].SetGlobalBuffer(inDesc_[k].template GetDataPtr<T>(t) + offset, count);
            }
            if constexpr (Op::OUT) {
                outGm_.SetGlobalBuffer(outDesc_.template GetDataPtr<T>(t) + offset, count);
            }
            op.SetTensor(t);
            const uint32_t tile = split_.tileLength;
            for (uint64_t done = 0; done < count; done += tile) {
                const uint32_t n = static_cast<uint32_t>(count - done < tile ? count - done : tile);
                CopyIn(done, n);
                Compute(op, n);
                if constexpr (Op::OUT) {
                    CopyOut(done, n);
                }
            }
            op.EndSegment(t);
        });
    }

private:
    __aicore__ inline void CopyIn(uint64_t at, uint32_t n)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        for (uint32_t k = 0; k < Op::IN; ++k) {
            LocalTensor<T> x = inQue_[k].template AllocTensor<T>();
            DataCopyPad(x, inGm_[k][at], params, pad);
            inQue_[k].EnQue(x);
        }
    }

    __aicore__ inline void Compute(Op& op, uint32_t n)
    {
        const uint32_t tile = split_.tileLength;
        LocalTensor<T> x[IN_PLANES];
        LocalTensor<float> in[IN_PLANES];
        LocalTensor<float> tmp[Op::TMP > 0 ? Op::TMP : 1];
        LocalTensor<float> calc;
        if constexpr (CAST || Op::TMP > 0) {
            calc = calcBuf_.template Get<float>();
        }
        uint32_t plane = 0;
        for (uint32_t k = 0; k < Op::IN; ++k) {
            x[k] = inQue_[k].template DeQue<T>();
            if constexpr (CAST) {
                in[k] = calc[(plane++) * tile];
                Cast(in[k], x[k], RoundMode::CAST_NONE, n);
            } else {
                in[k] = x[k].template ReinterpretCast<float>();
            }
        }
        LocalTensor<T> y;
        LocalTensor<float> out;
        if constexpr (Op::OUT) {
            y = outQue_.template AllocTensor<T>();
        }
        if constexpr (CAST) {
            out = calc[(plane++) * tile];
        } else if constexpr (Op::OUT) {
            out = y.template ReinterpretCast<float>();
        } else {
            out = in[0];
        }
        for (uint32_t k = 0; k < Op::TMP; ++k) {
            tmp[k] = calc[(plane++) * tile];
        }
        op(in, out, tmp, n);
        if constexpr (Op::OUT) {
            if constexpr (CAST) {
                Cast(y, out, RoundMode::CAST_RINT, n);
            }
            outQue_.EnQue(y);
        }
        for (uint32_t k = 0; k < Op::IN; ++k) {
            inQue_[k].FreeTensor(x[k]);
        }
    }

    __aicore__ inline void CopyOut(uint64_t at, uint32_t n)
    {
        LocalTensor<T> y = outQue_.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm_[at], y, params);
        outQue_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_[MAX_LISTS];
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<QuePosition::VECCALC> calcBuf_;
    ListTensorDesc inDesc_[MAX_LISTS];
    ListTensorDesc walkDesc_;
    ListTensorDesc outDesc_;
    GlobalTensor<T> inGm_[MAX_LISTS];
    GlobalTensor<T> outGm_;
    Split split_{};
};

// The usual entry body: list inputs -> one output list.
template <typename T, class Op>
__aicore__ inline void Run(GM_ADDR const* inLists, GM_ADDR outList, const Split& split, Op& op)
{
    ListKernel<T, Op> kernel;
    kernel.Init(inLists, outList, split);
    kernel.Process(op);
}

// x / s, exactly (a division, not a multiplication by the rounded reciprocal).
template <class S>
struct DivsOp : S {
    static constexpr uint32_t TMP = 1;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Duplicate(tmp[0], this->s, n);
        Div(out, in[0], tmp[0], n);
    }
};

// x1 + s * x2 or x1 - s * x2 (ForeachAddList / ForeachSubList, s = alpha).
template <bool SUB>
struct AlphaOp : Lists<ScalarBase, 2> {
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>*, uint32_t n) const
    {
        Muls(in[1], in[1], SUB ? -s : s, n);
        Add(out, in[0], in[1], n);
    }
};

// A whole kernel entry: the tiling, the operator (with its scalar argument) and the run.
template <typename T, class Op, uint32_t N>
__aicore__ inline void RunLists(GM_ADDR const (&lists)[N], GM_ADDR out, GM_ADDR tiling, GM_ADDR scalar = nullptr)
{
    GET_TILING_DATA(t, tiling);
    const Split split{t.tensorNum, t.blocksPerCore, t.bigCoreNum, t.tileLength};
    Op op;
    op.Load(scalar);
    Run<T>(lists, out, split, op);
}
}  // namespace foreach

// The signature of an operator's computation (see the top of this file).
#define FOREACH_COMPUTE                                                                                  \
    __aicore__ inline void operator()(const AscendC::LocalTensor<float>* in, const AscendC::LocalTensor<float>& out, \
                                      const AscendC::LocalTensor<float>* tmp, uint32_t n) const

#define FOREACH_SPLIT(t) foreach::Split{(t).tensorNum, (t).blocksPerCore, (t).bigCoreNum, (t).tileLength}

#endif  // FOREACH_KERNEL_H
