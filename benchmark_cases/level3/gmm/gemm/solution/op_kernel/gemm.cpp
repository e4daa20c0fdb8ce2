// Gemm with the Matmul high-level API: every vector core takes output tiles, has the cube core compute
// A @ B for the tile straight into its UB (IterateAll to a VECCALC tensor), then applies
// out = alpha * (A @ B) + beta * C with vector instructions.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(t, tiling);
    using AType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using BType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    using CType = matmul::MatmulType<TPosition::VECCALC, CubeFormat::ND, float>;
    matmul::Matmul<AType, BType, CType> mm;
    TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t.cube);
    GlobalTensor<float> ga, gb, gc, gout;
    ga.SetGlobalBuffer((__gm__ float*)a, static_cast<uint64_t>(t.m) * t.k);
    gb.SetGlobalBuffer((__gm__ float*)b, static_cast<uint64_t>(t.k) * t.n);
    gc.SetGlobalBuffer((__gm__ float*)c, static_cast<uint64_t>(t.m) * t.n);
    gout.SetGlobalBuffer((__gm__ float*)out, static_cast<uint64_t>(t.m) * t.n);
    TBuf<TPosition::VECCALC> prodBuf, cBuf;
    pipe.InitBuffer(prodBuf, t.tileM * t.tileN * sizeof(float));
    pipe.InitBuffer(cBuf, t.tileM * t.tileN * sizeof(float));
    LocalTensor<float> prod = prodBuf.Get<float>(), cl = cBuf.Get<float>();
    mm.SetOrgShape(t.m, t.n, t.k);
    const uint32_t workers = GetBlockNum() * GetSubBlockNum();
    for (uint32_t i = GetBlockIdx(); i < t.tilesM * t.tilesN; i += workers) {
        const uint32_t m0 = (i / t.tilesN) * t.tileM, n0 = (i % t.tilesN) * t.tileN;
        const uint32_t m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
        const uint32_t n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
        const uint64_t g = static_cast<uint64_t>(m0) * t.n + n0;
        // The result lands in UB as m rows of align8(n) floats (whole 32-byte blocks).
        mm.SetTensorA(ga[static_cast<uint64_t>(m0) * t.k]);
        mm.SetTensorB(gb[n0]);
        mm.SetTail(m, n, t.k);
        mm.IterateAll(prod);
        const uint32_t stride = (n + 7) / 8 * 8;
        DataCopyPad(cl, gc[g], DataCopyExtParams(static_cast<uint16_t>(m), n * sizeof(float), (t.n - n) * sizeof(float), 0, 0),
                    DataCopyPadExtParams<float>());
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
        Muls(prod, prod, t.alpha, m * stride);
        Axpy(prod, cl, t.beta, m * stride);
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopyPad(gout[g], prod, DataCopyExtParams(static_cast<uint16_t>(m), n * sizeof(float), 0, (t.n - n) * sizeof(float), 0));
        SetFlag<HardEvent::MTE3_MTE2>(0);
        WaitFlag<HardEvent::MTE3_MTE2>(0);
    }
    mm.End();
}
