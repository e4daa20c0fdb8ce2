// BatchedMatmul with the Matmul high-level API: every vector core takes (batch, tile) work items and
// asks the cube core of its AI core for C_tile = A_rows x B_cols (IterateAll straight to GM).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void batched_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(t, tiling);
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_A>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_B>;
    using CType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, DTYPE_C>;
    matmul::Matmul<AType, BType, CType> mm;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
    GlobalTensor<DTYPE_A> ga;
    GlobalTensor<DTYPE_B> gb;
    GlobalTensor<DTYPE_C> gc;
    ga.SetGlobalBuffer((__gm__ DTYPE_A*)a, static_cast<uint64_t>(t.batch) * t.m * t.k);
    gb.SetGlobalBuffer((__gm__ DTYPE_B*)b, static_cast<uint64_t>(t.batch) * t.k * t.n);
    gc.SetGlobalBuffer((__gm__ DTYPE_C*)c, static_cast<uint64_t>(t.batch) * t.m * t.n);
    mm.SetOrgShape(t.m, t.n, t.k);
    const uint32_t perBatch = t.tilesM * t.tilesN;
    const uint32_t workers = GetBlockNum() * GetSubBlockNum();
    for (uint32_t item = GetBlockIdx(); item < t.batch * perBatch; item += workers) {
        const uint32_t bi = item / perBatch, tile = item % perBatch;
        const uint32_t m0 = (tile / t.tilesN) * t.tileM, n0 = (tile % t.tilesN) * t.tileN;
        const uint32_t m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
        const uint32_t n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
        mm.SetTensorA(ga[static_cast<uint64_t>(bi) * t.m * t.k + static_cast<uint64_t>(m0) * t.k]);
        mm.SetTensorB(gb[static_cast<uint64_t>(bi) * t.k * t.n + n0]);
        mm.SetTail(m, n, t.k);
        mm.IterateAll(gc[static_cast<uint64_t>(bi) * t.m * t.n + static_cast<uint64_t>(m0) * t.n + n0]);
    }
    mm.End();
}
