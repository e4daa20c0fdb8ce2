#include "kernel_operator.h"
#include "activation_kernel.h"
using namespace AscendC;

// reduction = "none": y = (predict - label)^2 elementwise (the shared elementwise base).
struct SquaredDiffOp {
    static constexpr uint32_t IN = 2, OUT = 1, IN_SPLIT = 0, OUT_SPLIT = 0, TMP = 0;
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>* out,
                                      const LocalTensor<float>* tmp, uint32_t n) const
    {
        Sub(out[0], in[0], in[1], n);
        Mul(out[0], out[0], out[0], n);
    }
};

// reduction = "mean" / "sum": every core accumulates (predict - label)^2 of its slice into a
// float32 vector (one lane per tile position, so each lane sums few values), reduces it once and
// parks the partial in its own 32-byte slot of the workspace. After SyncAll, core 0 loads the
// partials (zero-padded to a block each), sums them, scales (1/N for mean) and writes the scalar.
template <typename T>
class MseReduce {
public:
    __aicore__ inline MseReduce() {}

    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                const activation_kernels::EltShape& s, float scale)
    {
        constexpr uint32_t epb = activation_kernels::kBlockBytes / sizeof(T);
        tileElems_ = s.tileElems;
        scale_ = scale;
        const uint32_t idx = GetBlockIdx();
        const uint32_t colBlocks = (s.cols + epb - 1) / epb;
        const uint32_t base = colBlocks / s.colCores;
        const uint32_t big = colBlocks % s.colCores;
        const uint32_t start = (idx * base + (idx < big ? idx : big)) * epb;
        uint32_t end = start + (base + (idx < big ? 1 : 0)) * epb;
        end = end < s.cols ? end : s.cols;
        count_ = end > start ? end - start : 0;
        pGm_.SetGlobalBuffer((__gm__ T*)predict + start, count_);
        lGm_.SetGlobalBuffer((__gm__ T*)label + start, count_);
        yGm_.SetGlobalBuffer((__gm__ T*)y, 1);
        wsGm_.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), GetBlockNum() * kSlot);
        pipe_.InitBuffer(inP_, activation_kernels::kBufferNum, tileElems_ * sizeof(T));
        pipe_.InitBuffer(inL_, activation_kernels::kBufferNum, tileElems_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 1, 2 * kSlot * sizeof(float));
        pipe_.InitBuffer(calc_, (CAST ? 5 : 3) * tileElems_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> all = calc_.Get<float>();
        LocalTensor<float> acc = all;
        LocalTensor<float> work = all[tileElems_];
        LocalTensor<float> diff = all[2 * tileElems_];
        Duplicate(acc, 0.0f, tileElems_);
        const uint32_t tiles = (count_ + tileElems_ - 1) / tileElems_;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t n = (i == tiles - 1) ? count_ - i * tileElems_ : tileElems_;
            CopyIn(i, n);
            Accumulate(all, acc, diff, n);
        }
        // Partial of this core -> its workspace slot.
        LocalTensor<float> part = outQ_.AllocTensor<float>();
        ReduceSum<float>(part, acc, work, tileElems_);
        outQ_.EnQue(part);
        part = outQ_.DeQue<float>();
        DataCopyPad(wsGm_[GetBlockIdx() * kSlot], part, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
        outQ_.FreeTensor(part);
        SyncAll();
        if (GetBlockIdx() == 0) {
            Finish(acc, work);
        }
    }

private:
    static constexpr bool CAST = !std::is_same_v<T, float>;
    static constexpr uint32_t kSlot = activation_kernels::kBlockBytes / sizeof(float);

    __aicore__ inline void CopyIn(uint32_t tile, uint32_t n)
    {
        LocalTensor<T> p = inP_.AllocTensor<T>();
        LocalTensor<T> l = inL_.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(p, pGm_[tile * tileElems_], params, pad);
        DataCopyPad(l, lGm_[tile * tileElems_], params, pad);
        inP_.EnQue(p);
        inL_.EnQue(l);
    }

    __aicore__ inline void Accumulate(const LocalTensor<float>& all, const LocalTensor<float>& acc,
                                      const LocalTensor<float>& diff, uint32_t n)
    {
        LocalTensor<T> p = inP_.DeQue<T>();
        LocalTensor<T> l = inL_.DeQue<T>();
        if constexpr (CAST) {
            LocalTensor<float> pf = all[3 * tileElems_];
            LocalTensor<float> lf = all[4 * tileElems_];
            Cast(pf, p, RoundMode::CAST_NONE, n);
            Cast(lf, l, RoundMode::CAST_NONE, n);
            Sub(diff, pf, lf, n);
        } else {
            Sub(diff, p, l, n);
        }
        Mul(diff, diff, diff, n);
        Add(acc, acc, diff, n);
        inP_.FreeTensor(p);
        inL_.FreeTensor(l);
    }

    __aicore__ inline void Finish(const LocalTensor<float>& acc, const LocalTensor<float>& work)
    {
        const uint32_t cores = GetBlockNum();
        LocalTensor<T> raw = inP_.AllocTensor<T>();
        LocalTensor<float> parts = raw.template ReinterpretCast<float>();
        // One partial per 32-byte slot; the other 7 lanes of each block are padded with zeros.
        DataCopyExtParams params{static_cast<uint16_t>(cores), sizeof(float),
                                 static_cast<uint32_t>((kSlot - 1) * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(kSlot - 1), 0.0f};
        DataCopyPad(parts, wsGm_, params, pad);
        inP_.EnQue(raw);
        raw = inP_.DeQue<T>();
        parts = raw.template ReinterpretCast<float>();
        LocalTensor<float> total = outQ_.AllocTensor<float>();
        ReduceSum<float>(total, parts, work, cores * kSlot);
        Muls(total, total, scale_, 1);
        LocalTensor<T> out = total[kSlot].template ReinterpretCast<T>();  // the next 32-byte block
        if constexpr (CAST) {
            Cast(out, total, RoundMode::CAST_RINT, 1);
        } else {
            Adds(out, total, 0.0f, 1);
        }
        outQ_.EnQue(total);
        total = outQ_.DeQue<float>();
        DataCopyPad(yGm_, total[kSlot].template ReinterpretCast<T>(), DataCopyExtParams{1, sizeof(T), 0, 0, 0});
        outQ_.FreeTensor(total);
        inP_.FreeTensor(raw);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, activation_kernels::kBufferNum> inP_, inL_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<QuePosition::VECCALC> calc_;
    GlobalTensor<T> pGm_, lGm_, yGm_;
    GlobalTensor<float> wsGm_;
    uint32_t tileElems_ = 0;
    uint32_t count_ = 0;
    float scale_ = 1.0f;
};

extern "C" __global__ __aicore__ void mse_loss(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const activation_kernels::EltShape shape{t.rows, t.cols, t.rowCores, t.colCores, t.tileElems, t.colTile};
    if (TILING_KEY_IS(0)) {
        GM_ADDR in[] = {predict, label};
        GM_ADDR out[] = {y};
        activation_kernels::RunElementwise<DTYPE_PREDICT, SquaredDiffOp>(in, out, shape, SquaredDiffOp{});
    } else if (TILING_KEY_IS(1)) {
        MseReduce<DTYPE_PREDICT> op;
        op.Init(predict, label, y, workspace, shape, t.attr0);
        op.Process();
    }
}
