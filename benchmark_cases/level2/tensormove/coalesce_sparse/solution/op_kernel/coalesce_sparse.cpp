// CoalesceSparse: new_values[unique_indices[i]] += values[i], new_indices[unique_indices[i]] = indices[i].
//
// Phase 1: every core zeroes its share of new_values (one zero tile, contiguous DataCopyPads), then
//          SyncAll so no core adds into an unzeroed row.
// Phase 2: entries split over the cores; per tile of B entries one DataCopyPad each for the slots,
//          the value rows and the index rows (rows 32-byte aligned in UB). The value rows leave with
//          SetAtomicAdd, one DataCopyPad per run of entries whose slots are consecutive (a sorted,
//          duplicate-free stretch goes out in one instruction); index rows are plain copies (all
//          duplicates of a slot carry the same index, so concurrent writes agree).
#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
class CoalesceSparseKernel {
public:
    __aicore__ inline CoalesceSparseKernel() {}

    __aicore__ inline void Init(GM_ADDR ui, GM_ADDR idx, GM_ADDR val, GM_ADDR newIdx, GM_ADDR newVal,
                                const CoalesceSparseTilingData& t)
    {
        K = t.rowLen;
        nd = t.ndim;
        B = t.tileEntries;
        zeroElems = t.zeroElems;
        const uint32_t core = GetBlockIdx();
        const uint32_t eb = t.entriesBigCores;
        eBegin = uint64_t(core) * t.entriesPerCore + (core < eb ? core : eb);
        eCount = t.entriesPerCore + (core < eb ? 1 : 0);
        const uint32_t zb = t.zeroBigCores;
        zBegin = uint64_t(core) * t.zeroPerCore + (core < zb ? core : zb);
        zCount = t.zeroPerCore + (core < zb ? 1 : 0);
        uiGm.SetGlobalBuffer((__gm__ int32_t*)ui, t.nnz);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)idx, uint64_t(t.nnz) * nd);
        valGm.SetGlobalBuffer((__gm__ T*)val, uint64_t(t.nnz) * K);
        newIdxGm.SetGlobalBuffer((__gm__ int32_t*)newIdx, uint64_t(t.outRows) * nd);
        newValGm.SetGlobalBuffer((__gm__ T*)newVal, uint64_t(t.outRows) * K);
        constexpr uint32_t epb = 32 / sizeof(T);
        Sk = (K + epb - 1) / epb * epb;
        Sd = (nd + 7) / 8 * 8;
        pipe.InitBuffer(uiBuf, (B + 7) / 8 * 32);
        pipe.InitBuffer(valBuf, B * Sk * sizeof(T));
        pipe.InitBuffer(idxBuf, B * Sd * sizeof(int32_t));
        pipe.InitBuffer(zeroBuf, zeroElems * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        ZeroOutput();
        SyncAll();
        for (uint32_t e = 0; e < eCount; e += B) {
            const uint32_t n = (eCount - e) < B ? (eCount - e) : B;
            Tile(eBegin + e, n);
        }
    }

private:
    template <HardEvent E>
    __aicore__ inline void Sync()
    {
        event_t ev = static_cast<event_t>(pipe.FetchEventID(E));
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void ZeroOutput()
    {
        if (zCount == 0) {
            return;
        }
        LocalTensor<T> zero = zeroBuf.Get<T>();
        if constexpr (sizeof(T) == 2) {
            Duplicate(zero.template ReinterpretCast<int16_t>(), int16_t(0), zeroElems);
        } else {
            Duplicate(zero.template ReinterpretCast<int32_t>(), int32_t(0), zeroElems);
        }
        Sync<HardEvent::V_MTE3>();
        for (uint64_t z = 0; z < zCount; z += zeroElems) {
            const uint32_t n = (zCount - z) < zeroElems ? static_cast<uint32_t>(zCount - z) : zeroElems;
            DataCopyPad(newValGm[zBegin + z], zero, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});
        }
        Sync<HardEvent::MTE3_S>();  // the zeros are in GM before this core reaches SyncAll
    }

    __aicore__ inline void Tile(uint64_t e, uint32_t n)
    {
        LocalTensor<int32_t> ui = uiBuf.Get<int32_t>();
        LocalTensor<T> val = valBuf.Get<T>();
        LocalTensor<int32_t> idx = idxBuf.Get<int32_t>();
        DataCopyPad(ui, uiGm[e], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0},
                    DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
        DataCopyPad(val, valGm[e * K], DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(K * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(idx, idxGm[e * nd], DataCopyExtParams{static_cast<uint16_t>(n), static_cast<uint32_t>(nd * sizeof(int32_t)), 0, 0, 0},
                    DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
        Sync<HardEvent::MTE2_S>();
        Sync<HardEvent::MTE2_MTE3>();
        SetAtomicAdd<T>();
        for (uint32_t i = 0; i < n;) {
            const int32_t slot = ui.GetValue(i);
            uint32_t run = 1;
            while (i + run < n && ui.GetValue(i + run) == slot + int32_t(run)) {
                ++run;
            }
            DataCopyPad(newValGm[uint64_t(slot) * K], val[i * Sk],
                        DataCopyExtParams{static_cast<uint16_t>(run), static_cast<uint32_t>(K * sizeof(T)), 0, 0, 0});
            i += run;
        }
        SetAtomicNone();
        for (uint32_t i = 0; i < n;) {
            const int32_t slot = ui.GetValue(i);
            uint32_t run = 1;
            while (i + run < n && ui.GetValue(i + run) == slot + int32_t(run)) {
                ++run;
            }
            DataCopyPad(newIdxGm[uint64_t(slot) * nd], idx[i * Sd],
                        DataCopyExtParams{static_cast<uint16_t>(run), static_cast<uint32_t>(nd * sizeof(int32_t)), 0, 0, 0});
            i += run;
        }
        Sync<HardEvent::MTE3_MTE2>();  // the next tile reuses the UB rows
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> uiBuf, valBuf, idxBuf, zeroBuf;
    GlobalTensor<int32_t> uiGm, idxGm, newIdxGm;
    GlobalTensor<T> valGm, newValGm;
    uint32_t K = 1, nd = 1, B = 1, Sk = 8, Sd = 8, zeroElems = 0, eCount = 0;
    uint64_t eBegin = 0, zBegin = 0, zCount = 0;
};

extern "C" __global__ __aicore__ void coalesce_sparse(GM_ADDR unique_indices, GM_ADDR indices, GM_ADDR values,
                                                      GM_ADDR new_indices, GM_ADDR new_values, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    CoalesceSparseKernel<DTYPE_VALUES> op;
    op.Init(unique_indices, indices, values, new_indices, new_values, tilingData);
    op.Process();
}
