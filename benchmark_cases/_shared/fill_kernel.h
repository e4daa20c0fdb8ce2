// fill_kernel.h -- kernel base of the level-1 tensor-creation solutions (Fill, Eye, Arange): output-only
// kernels. Each core owns a range of 256-element units of y (the first `bigCoreNum` cores one unit
// more) and produces it tile by tile in a double-buffered VECOUT queue, so the generation of tile
// t + 1 overlaps the MTE3 write of tile t; tails go out with DataCopyPad.
//
// A generator `Gen` (held by reference: it may own scratch the caller allocates through Pipe()) provides
//   void operator()(const LocalTensor<T>& tile, uint64_t first, uint32_t n, uint32_t nAligned) const;
// writing the values of y[first, first + n) into `tile` (nAligned: n rounded up to 256 elements).
#ifndef FILL_KERNEL_H
#define FILL_KERNEL_H

#include "kernel_operator.h"

namespace fill_kernels {
using namespace AscendC;

constexpr int32_t kBufferNum = 2;
constexpr uint32_t kUnit = 256;

// Bit-pattern type of a dtype: Duplicate/SetValue of raw bits works for every 2- and 4-byte dtype
// (bfloat16 included) without any arithmetic.
template <typename T>
using Bits = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;

template <typename T, class Gen>
class Writer {
public:
    __aicore__ inline Writer(Gen& gen) : gen_(gen) {}

    __aicore__ inline void Init(GM_ADDR y, uint32_t totalLength, uint32_t unitsPerCore, uint32_t bigCoreNum,
                                uint32_t tileLength)
    {
        const uint32_t idx = GetBlockIdx();
        const uint64_t units = unitsPerCore + (idx < bigCoreNum ? 1 : 0);
        start_ = (uint64_t(idx) * unitsPerCore + (idx < bigCoreNum ? idx : bigCoreNum)) * kUnit;
        uint64_t end = start_ + units * kUnit;
        end = end < totalLength ? end : totalLength;
        length_ = end > start_ ? static_cast<uint32_t>(end - start_) : 0;
        tile_ = tileLength;
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + start_, length_);
        pipe_.InitBuffer(outQ_, kBufferNum, tile_ * sizeof(T));
    }

    __aicore__ inline TPipe& Pipe() { return pipe_; }

    __aicore__ inline void Process()
    {
        const uint32_t tiles = (length_ + tile_ - 1) / tile_;
        for (uint32_t t = 0; t < tiles; ++t) {
            const uint32_t n = (t == tiles - 1) ? length_ - t * tile_ : tile_;
            LocalTensor<T> y = outQ_.AllocTensor<T>();
            gen_(y, start_ + uint64_t(t) * tile_, n, (n + kUnit - 1) / kUnit * kUnit);
            outQ_.EnQue(y);
            y = outQ_.DeQue<T>();
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm_[uint64_t(t) * tile_], y, params);
            outQ_.FreeTensor(y);
        }
    }

private:
    Gen& gen_;
    TPipe pipe_;
    TQue<QuePosition::VECOUT, kBufferNum> outQ_;
    GlobalTensor<T> yGm_;
    uint64_t start_ = 0;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

// Reads element 0 of a one-element GM tensor.
template <typename T>
__aicore__ inline T ReadScalar(GM_ADDR addr)
{
    GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(addr), 1);
    return g.GetValue(0);
}
}  // namespace fill_kernels
#endif  // FILL_KERNEL_H
