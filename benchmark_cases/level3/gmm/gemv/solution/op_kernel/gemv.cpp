// Gemv on the vector cores: each core owns a band of rows; x is streamed in chunks of XC floats, a
// group of ROWS rows of A at a time is multiplied by the chunk and reduced row by row.
#include "kernel_operator.h"

using namespace AscendC;

struct GemvTiling {
    uint32_t m, n, rowsPerCore;
    float alpha, beta;
};

constexpr uint32_t XC = 2048;    // floats of x per chunk
constexpr uint32_t ROWS = 16;    // rows of A per step

extern "C" __global__ __aicore__ void gemv(GM_ADDR a, GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA_WITH_STRUCT(GemvTiling, t, tiling);
    const uint32_t r0 = GetBlockIdx() * t.rowsPerCore;
    const uint32_t rows = t.m - r0 < t.rowsPerCore ? t.m - r0 : t.rowsPerCore;
    GlobalTensor<float> ga, gx, gy, gout;
    ga.SetGlobalBuffer((__gm__ float*)a, static_cast<uint64_t>(t.m) * t.n);
    gx.SetGlobalBuffer((__gm__ float*)x, t.n);
    gy.SetGlobalBuffer((__gm__ float*)y, t.m);
    gout.SetGlobalBuffer((__gm__ float*)out, t.m);
    TPipe pipe;
    TBuf<TPosition::VECCALC> aBuf, xBuf, prodBuf, workBuf, sumBuf, accBuf, yBuf;
    pipe.InitBuffer(aBuf, ROWS * XC * sizeof(float));
    pipe.InitBuffer(xBuf, XC * sizeof(float));
    pipe.InitBuffer(prodBuf, XC * sizeof(float));
    pipe.InitBuffer(workBuf, XC * sizeof(float));
    pipe.InitBuffer(sumBuf, 32);
    const uint32_t rowsPad = (rows + 7) / 8 * 8;
    pipe.InitBuffer(accBuf, rowsPad * sizeof(float));
    pipe.InitBuffer(yBuf, rowsPad * sizeof(float));
    LocalTensor<float> la = aBuf.Get<float>(), lx = xBuf.Get<float>(), prod = prodBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>(), sum = sumBuf.Get<float>(), acc = accBuf.Get<float>(), ly = yBuf.Get<float>();
    Duplicate(acc, 0.0f, rowsPad);
    for (uint32_t c0 = 0; c0 < t.n; c0 += XC) {
        const uint32_t cols = t.n - c0 < XC ? t.n - c0 : XC;
        const uint32_t colsPad = (cols + 7) / 8 * 8;
        DataCopyPad(lx, gx[c0], DataCopyExtParams(1, cols * sizeof(float), 0, 0, 0), DataCopyPadExtParams<float>());
        for (uint32_t r = 0; r < rows; r += ROWS) {
            const uint32_t cnt = rows - r < ROWS ? rows - r : ROWS;
            DataCopyPad(la, ga[static_cast<uint64_t>(r0 + r) * t.n + c0],
                        DataCopyExtParams(static_cast<uint16_t>(cnt), cols * sizeof(float), (t.n - cols) * sizeof(float),
                                          (XC - colsPad) / 8, 0),
                        DataCopyPadExtParams<float>());
            SetFlag<HardEvent::MTE2_V>(0);
            WaitFlag<HardEvent::MTE2_V>(0);
            for (uint32_t i = 0; i < cnt; ++i) {
                Mul(prod, la[i * XC], lx, cols);
                ReduceSum(sum, prod, work, cols);
                SetFlag<HardEvent::V_S>(0);
                WaitFlag<HardEvent::V_S>(0);
                acc.SetValue(r + i, acc.GetValue(r + i) + sum.GetValue(0));
                SetFlag<HardEvent::S_V>(0);
                WaitFlag<HardEvent::S_V>(0);
            }
            SetFlag<HardEvent::V_MTE2>(0);
            WaitFlag<HardEvent::V_MTE2>(0);
        }
    }
    DataCopyPad(ly, gy[r0], DataCopyExtParams(1, rows * sizeof(float), 0, 0, 0), DataCopyPadExtParams<float>());
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(acc, acc, t.alpha, rowsPad);
    Axpy(acc, ly, t.beta, rowsPad);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopyPad(gout[r0], acc, DataCopyExtParams(1, rows * sizeof(float), 0, 0, 0));
}
