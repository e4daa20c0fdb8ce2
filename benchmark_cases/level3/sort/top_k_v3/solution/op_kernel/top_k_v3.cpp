// TopKV3 on the vector cores: every core takes whole rows. A row sits in the unified buffer; k rounds
// of ReduceMax (ReduceMin for the smallest) with the index of the extreme pick the winners in order,
// each winner is then replaced by -inf (+inf) so that the next round finds the next one.
#include "kernel_operator.h"

using namespace AscendC;

struct TopKTiling {
    uint32_t rows;
    uint32_t n;
    uint32_t largest;
};

template <typename T>
struct Bits;
template <>
struct Bits<half> {
    using U = uint16_t;
    static constexpr U NEG_INF = 0xFC00, POS_INF = 0x7C00;
};
template <>
struct Bits<float> {
    using U = uint32_t;
    static constexpr U NEG_INF = 0xFF800000u, POS_INF = 0x7F800000u;
};

template <typename T>
class TopKV3Kernel {
    using U = typename Bits<T>::U;

public:
    __aicore__ inline void Init(const TopKTiling& t, GM_ADDR x, GM_ADDR k, GM_ADDR values, GM_ADDR indices)
    {
        t_ = t;
        GlobalTensor<int32_t> kGm;
        kGm.SetGlobalBuffer((__gm__ int32_t*)k, 1);
        const int32_t kv = kGm.GetValue(0);
        k_ = kv < 0 ? 0 : (static_cast<uint32_t>(kv) > t.n ? t.n : static_cast<uint32_t>(kv));
        x_.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(t.rows) * t.n);
        values_.SetGlobalBuffer((__gm__ T*)values, static_cast<uint64_t>(t.rows) * k_);
        indices_.SetGlobalBuffer((__gm__ int32_t*)indices, static_cast<uint64_t>(t.rows) * k_);
        const uint32_t nPad = (t.n * sizeof(T) + 31) / 32 * 32;
        const uint32_t kPad = (k_ * sizeof(int32_t) + 31) / 32 * 32 + 32;
        pipe_.InitBuffer(row_, nPad);
        pipe_.InitBuffer(work_, nPad);  // one partial (value, index) per 256-byte repeat: far less
        pipe_.InitBuffer(res_, 32);
        pipe_.InitBuffer(vals_, kPad);
        pipe_.InitBuffer(idx_, kPad);
    }

    __aicore__ inline void Process()
    {
        if (k_ == 0) return;
        for (uint32_t r = GetBlockIdx(); r < t_.rows; r += GetBlockNum()) Row(r);
    }

private:
    __aicore__ inline void Row(uint32_t r)
    {
        LocalTensor<T> row = row_.Get<T>(), work = work_.Get<T>(), res = res_.Get<T>(), vals = vals_.Get<T>();
        LocalTensor<U> rowBits = row.template ReinterpretCast<U>(), resBits = res.template ReinterpretCast<U>();
        LocalTensor<int32_t> idx = idx_.Get<int32_t>();
        DataCopyPad(row, x_[static_cast<uint64_t>(r) * t_.n], DataCopyExtParams(1, t_.n * sizeof(T), 0, 0, 0),
                    DataCopyPadExtParams<T>(false, 0, 0, 0));
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        const U done = t_.largest ? Bits<T>::NEG_INF : Bits<T>::POS_INF;
        for (uint32_t i = 0; i < k_; ++i) {
            if (t_.largest) ReduceMax(res, row, work, static_cast<int32_t>(t_.n), true);
            else ReduceMin(res, row, work, static_cast<int32_t>(t_.n), true);
            SetFlag<HardEvent::V_S>(0);
            WaitFlag<HardEvent::V_S>(0);
            const uint32_t at = static_cast<uint32_t>(resBits.GetValue(1));
            vals.SetValue(i, res.GetValue(0));
            idx.SetValue(i, static_cast<int32_t>(at));
            rowBits.SetValue(at, done);
            SetFlag<HardEvent::S_V>(0);
            WaitFlag<HardEvent::S_V>(0);
        }
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
        DataCopyPad(values_[static_cast<uint64_t>(r) * k_], vals, DataCopyExtParams(1, k_ * sizeof(T), 0, 0, 0));
        DataCopyPad(indices_[static_cast<uint64_t>(r) * k_], idx, DataCopyExtParams(1, k_ * sizeof(int32_t), 0, 0, 0));
        SetFlag<HardEvent::MTE3_MTE2>(0);  // the next row's load overwrites nothing still being stored,
        WaitFlag<HardEvent::MTE3_MTE2>(0);
        SetFlag<HardEvent::MTE3_S>(0);     // nor do its scalar writes
        WaitFlag<HardEvent::MTE3_S>(0);
    }

    TopKTiling t_;
    uint32_t k_ = 0;
    TPipe pipe_;
    TBuf<TPosition::VECCALC> row_, work_, res_, vals_, idx_;
    GlobalTensor<T> x_, values_;
    GlobalTensor<int32_t> indices_;
};

extern "C" __global__ __aicore__ void top_k_v3(GM_ADDR x, GM_ADDR k, GM_ADDR values, GM_ADDR indices,
                                               GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(TopKTiling, t, tiling);
    TopKV3Kernel<DTYPE_X> op;
    op.Init(t, x, k, values, indices);
    op.Process();
}
