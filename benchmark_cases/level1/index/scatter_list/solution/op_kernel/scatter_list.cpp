#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// var[l][b, s:s+U, :] = updates[l, b] with s = indices[b]: for every (l, b) item of this core, one
// contiguous block of U * D elements is streamed GM -> UB -> GM through a double-buffered VECIN/VECOUT
// bound queue (no vector work). Only the written rows are touched; var is updated in place.
template <typename T>
class KernelScatterList {
public:
    __aicore__ inline KernelScatterList() {}

    __aicore__ inline void Init(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, uint32_t batch, uint32_t seqLen,
                                uint32_t rowLen, uint32_t updateRows, uint32_t itemsPerCore, uint32_t bigCoreNum,
                                uint32_t tileLength)
    {
        const uint32_t idx = GetBlockIdx();
        itemStart_ = idx * itemsPerCore + (idx < bigCoreNum ? idx : bigCoreNum);
        itemCount_ = itemsPerCore + (idx < bigCoreNum ? 1 : 0);
        batch_ = batch;
        seqLen_ = seqLen;
        rowLen_ = rowLen;
        block_ = updateRows * rowLen;
        tile_ = tileLength;
        list_.Init(reinterpret_cast<__gm__ void*>(var));
        idxGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(indices), batch);
        updGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(updates));
        pipe_.InitBuffer(que_, BUFFER_NUM, tile_ * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < itemCount_; ++i) {
            const uint32_t item = itemStart_ + i;
            const uint32_t l = item / batch_;
            const uint32_t b = item % batch_;
            const int32_t row = idxGm_.GetValue(b);
            GlobalTensor<T> dst;
            dst.SetGlobalBuffer(list_.GetDataPtr<T>(l) + (uint64_t(b) * seqLen_ + row) * rowLen_, block_);
            const uint64_t src = uint64_t(item) * block_;
            for (uint32_t off = 0; off < block_; off += tile_) {
                const uint32_t n = block_ - off < tile_ ? block_ - off : tile_;
                LocalTensor<T> t = que_.AllocTensor<T>();
                DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0};
                DataCopyPadExtParams<T> pad{false, 0, 0, 0};
                DataCopyPad(t, updGm_[src + off], params, pad);
                que_.EnQue(t);
                t = que_.DeQue<T>();
                DataCopyPad(dst[off], t, params);
                que_.FreeTensor(t);
            }
        }
    }

private:
    TPipe pipe_;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> que_;
    ListTensorDesc list_;
    GlobalTensor<int32_t> idxGm_;
    GlobalTensor<T> updGm_;
    uint32_t itemStart_ = 0;
    uint32_t itemCount_ = 0;
    uint32_t batch_ = 0;
    uint32_t seqLen_ = 0;
    uint32_t rowLen_ = 0;
    uint32_t block_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void scatter_list(GM_ADDR var, GM_ADDR indices, GM_ADDR updates, GM_ADDR var_out,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelScatterList<DTYPE_UPDATES> op;
    op.Init(var, indices, updates, t.batch, t.seqLen, t.rowLen, t.updateRows, t.itemsPerCore, t.bigCoreNum,
            t.tileLength);
    op.Process();
}
