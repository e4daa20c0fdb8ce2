#include "kernel_operator.h"
using namespace AscendC;

// MaskedSelectV3 in two passes over a contiguous slice of the input per core (256-element units,
// big cores first):
//   1. count: mask (uint8) -> half -> CompareScalar(!= 0) gives one bit per element; GatherMask in
//      counter mode with those bits reports how many are set. The bits of the whole slice stay in UB
//      when they fit (tiling flag cacheBits). The core's count goes to its 32-byte workspace slot.
//   2. SyncAll; each core sums the counts of the cores before it (its output offset), then compacts x
//      tile by tile with GatherMask(x, bits) and appends the kept elements to y with DataCopyPad.
constexpr uint32_t UNIT = 256;
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t SLOT = 8;  // int32 per 32-byte workspace slot

template <typename T>
class MaskedSelect {
    using PatternT = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

public:
    __aicore__ inline MaskedSelect() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace,
                                const MaskedSelectV3TilingData& t)
    {
        const uint32_t idx = GetBlockIdx();
        const uint32_t startUnit = idx * t.unitsPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        const uint32_t start = startUnit * UNIT;
        uint32_t end = start + (t.unitsPerCore + (idx < t.bigCoreNum ? 1 : 0)) * UNIT;
        end = end < t.totalLength ? end : t.totalLength;
        count_ = end > start ? end - start : 0;
        tile_ = t.tileElems;
        cache_ = t.cacheBits != 0;
        xGm_.SetGlobalBuffer((__gm__ T*)x + start, count_);
        maskGm_.SetGlobalBuffer((__gm__ uint8_t*)mask + start, count_);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        wsGm_.SetGlobalBuffer((__gm__ int32_t*)GetUserWorkspace(workspace), GetBlockNum() * SLOT);
        pipe_.InitBuffer(maskQ_, BUFFER_NUM, tile_);
        pipe_.InitBuffer(xQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(yQ_, BUFFER_NUM, tile_ * sizeof(T));
        pipe_.InitBuffer(halfBuf_, tile_ * sizeof(half));
        pipe_.InitBuffer(bitsBuf_, cache_ ? t.cacheBytes : tile_ / 8);
        pipe_.InitBuffer(slotQ_, 1, SLOT * sizeof(int32_t));
        pipe_.InitBuffer(partsBuf_, GetBlockNum() * SLOT * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = (count_ + tile_ - 1) / tile_;
        // Pass 1: count the selected elements of this core.
        uint64_t mine = 0;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t n = TileLen(i, tiles);
            mine += MaskBits(i, n, Bits(i));
        }
        LocalTensor<int32_t> slot = slotQ_.AllocTensor<int32_t>();
        Duplicate(slot, static_cast<int32_t>(mine), SLOT);
        slotQ_.EnQue(slot);
        slot = slotQ_.DeQue<int32_t>();
        DataCopyPad(wsGm_[GetBlockIdx() * SLOT], slot, DataCopyExtParams{1, sizeof(int32_t), 0, 0, 0});
        slotQ_.FreeTensor(slot);
        SyncAll();
        // Output offset = counts of the cores before this one.
        uint64_t offset = 0;
        const uint32_t before = GetBlockIdx();
        if (before > 0) {
            LocalTensor<int32_t> parts = partsBuf_.Get<int32_t>();
            DataCopyExtParams params{static_cast<uint16_t>(before), sizeof(int32_t),
                                     static_cast<uint32_t>((SLOT - 1) * sizeof(int32_t)), 0, 0};
            DataCopyPad(parts, wsGm_, params, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
            Sync<HardEvent::MTE2_S>();
            for (uint32_t c = 0; c < before; ++c) {
                offset += static_cast<uint64_t>(parts.GetValue(c * SLOT));
            }
        }
        // Pass 2: compact x and append it to y.
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t n = TileLen(i, tiles);
            LocalTensor<T> xt = xQ_.AllocTensor<T>();
            DataCopyPad(xt, xGm_[i * tile_], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            xQ_.EnQue(xt);
            LocalTensor<uint8_t> bits = Bits(i);
            if (!cache_) {
                MaskBits(i, n, bits);
            }
            xt = xQ_.DeQue<T>();
            LocalTensor<T> yt = yQ_.AllocTensor<T>();
            uint64_t kept = 0;
            GatherMask(yt, xt, bits.template ReinterpretCast<PatternT>(), true, n, GatherMaskParams{1, 1, 8, 8}, kept);
            xQ_.FreeTensor(xt);
            yQ_.EnQue(yt);
            yt = yQ_.DeQue<T>();
            if (kept > 0) {
                DataCopyPad(yGm_[offset], yt, DataCopyExtParams{1, static_cast<uint32_t>(kept * sizeof(T)), 0, 0, 0});
            }
            yQ_.FreeTensor(yt);
            offset += kept;
        }
    }

private:
    __aicore__ inline uint32_t TileLen(uint32_t i, uint32_t tiles) const
    {
        return i == tiles - 1 ? count_ - i * tile_ : tile_;
    }

    // Bits of tile i: a slice of the cache (tile_ / 8 bytes each, 32-byte aligned) or the single tile buffer.
    __aicore__ inline LocalTensor<uint8_t> Bits(uint32_t i)
    {
        LocalTensor<uint8_t> all = bitsBuf_.Get<uint8_t>();
        return cache_ ? all[i * (tile_ / 8)] : all;
    }

    // Mask tile i (n elements) -> one bit per element in `bits`; returns the number of set bits.
    __aicore__ inline uint64_t MaskBits(uint32_t i, uint32_t n, const LocalTensor<uint8_t>& bits)
    {
        LocalTensor<uint8_t> m = maskQ_.AllocTensor<uint8_t>();
        DataCopyPad(m, maskGm_[i * tile_], DataCopyExtParams{1, n, 0, 0, 0}, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        maskQ_.EnQue(m);
        m = maskQ_.DeQue<uint8_t>();
        LocalTensor<half> h = halfBuf_.Get<half>();
        const uint32_t reps = (n + 127) / 128 * 128;  // whole 256-byte repeats of half; bits past n are ignored
        Cast(h, m, RoundMode::CAST_NONE, reps);
        maskQ_.FreeTensor(m);
        CompareScalar(bits, h, static_cast<half>(0), CMPMODE::NE, reps);
        uint64_t cnt = 0;
        GatherMask(h, h, bits.template ReinterpretCast<uint16_t>(), true, n, GatherMaskParams{1, 1, 8, 8}, cnt);
        return cnt;
    }

    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> maskQ_, xQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQ_;
    TQue<QuePosition::VECOUT, 1> slotQ_;
    TBuf<QuePosition::VECCALC> halfBuf_, bitsBuf_, partsBuf_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<uint8_t> maskGm_;
    GlobalTensor<int32_t> wsGm_;
    uint32_t count_ = 0;
    uint32_t tile_ = 0;
    bool cache_ = false;
};

extern "C" __global__ __aicore__ void masked_select_v3(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR workspace,
                                                       GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    MaskedSelect<DTYPE_X> op;
    op.Init(x, mask, y, workspace, t);
    op.Process();
}
