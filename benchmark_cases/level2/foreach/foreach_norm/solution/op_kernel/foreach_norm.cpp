#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

constexpr uint32_t MAX_TENSORS = 256;

// Per segment: |x|^p (x^2 for p = 2) reduced to one float; p = inf takes the maximum of |x|.
// A core's partial of tensor t is the combination of the segment results of t it streamed.
struct NormOp : foreach::OpBase {
    static constexpr uint32_t TMP = 2;   // ReduceSum/ReduceMax work area, result
    static constexpr bool OUT = false;
    float p;
    bool isInf;
    float* partial;                      // [tensorNum], this core's partials
    float acc = 0.0f;

    __aicore__ inline void SetTensor(uint32_t) { acc = 0.0f; }
    __aicore__ inline void EndSegment(uint32_t t) { partial[t] = acc; }
    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n)
    {
        if (p == 2.0f) {
            Mul(out, in[0], in[0], n);
        } else {
            Abs(out, in[0], n);
            if (!isInf && p != 1.0f) {
                Power(out, out, p, n);
            }
        }
        if (isInf) {
            ReduceMax(tmp[1], out, tmp[0], n);
        } else {
            ReduceSum(tmp[1], out, tmp[0], n);
        }
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(e);
        WaitFlag<HardEvent::V_S>(e);
        const float v = tmp[1].GetValue(0);
        acc = isInf ? (v > acc ? v : acc) : acc + v;
    }
};

// Every core publishes its row of partials; after SyncAll core 0 combines the rows, takes the
// 1/p power and writes one element per output tensor.
template <typename T>
__aicore__ inline void Finish(GM_ADDR y, GM_ADDR workspace, const NormOp& op, uint32_t tensorNum)
{
    const uint32_t stride = (tensorNum + 7) / 8 * 8;  // floats per row: 32-byte aligned rows
    const uint32_t cores = GetBlockNum();
    const uint32_t idx = GetBlockIdx();
    constexpr uint32_t SLOT = foreach::BLOCK_BYTES / sizeof(T);
    GlobalTensor<float> ws;
    ws.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(GetUserWorkspace(workspace)), cores * stride);

    TPipe pipe;
    TBuf<QuePosition::VECCALC> rowsBuf, outBuf;
    pipe.InitBuffer(rowsBuf, cores * stride * sizeof(float));
    pipe.InitBuffer(outBuf, stride * sizeof(float) + stride * SLOT * sizeof(T));
    LocalTensor<float> rows = rowsBuf.Get<float>();
    for (uint32_t t = 0; t < stride; ++t) {
        rows.SetValue(t, t < tensorNum ? op.partial[t] : 0.0f);
    }
    event_t sMte3 = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(sMte3);
    WaitFlag<HardEvent::S_MTE3>(sMte3);
    DataCopy(ws[idx * stride], rows, stride);
    SyncAll();
    if (idx != 0) {
        return;
    }
    DataCopy(rows, ws, cores * stride);
    event_t mte2V = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(mte2V);
    WaitFlag<HardEvent::MTE2_V>(mte2V);
    for (uint32_t c = 1; c < cores; ++c) {
        if (op.isInf) {
            Max(rows, rows, rows[c * stride], stride);
        } else {
            Add(rows, rows, rows[c * stride], stride);
        }
    }
    if (op.p == 2.0f) {
        Sqrt(rows, rows, stride);
    } else if (!op.isInf && op.p != 1.0f) {
        Power(rows, rows, 1.0f / op.p, stride);
    }
    LocalTensor<float> norms = outBuf.Get<float>();
    LocalTensor<T> slots = norms[stride].template ReinterpretCast<T>();
    LocalTensor<T> cast = rows.template ReinterpretCast<T>();
    if constexpr (std::is_same_v<T, float>) {
        cast = rows;
    } else {
        Cast(norms.template ReinterpretCast<T>(), rows, RoundMode::CAST_RINT, stride);
        cast = norms.template ReinterpretCast<T>();
    }
    event_t vS = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(vS);
    WaitFlag<HardEvent::V_S>(vS);
    // One 32-byte slot per tensor: DataCopyPad needs a block-aligned UB source.
    for (uint32_t t = 0; t < tensorNum; ++t) {
        slots.SetValue(t * SLOT, cast.GetValue(t));
    }
    SetFlag<HardEvent::S_MTE3>(sMte3);
    WaitFlag<HardEvent::S_MTE3>(sMte3);
    ListTensorDesc out(y);
    GlobalTensor<T> yGm;
    DataCopyExtParams params{1, static_cast<uint32_t>(sizeof(T)), 0, 0, 0};
    for (uint32_t t = 0; t < tensorNum; ++t) {
        yGm.SetGlobalBuffer(out.GetDataPtr<T>(t), 1);
        DataCopyPad(yGm, slots[t * SLOT], params);
    }
}

extern "C" __global__ __aicore__ void foreach_norm(GM_ADDR x, GM_ADDR scalar, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const foreach::Split split = FOREACH_SPLIT(t);
    float partial[MAX_TENSORS];
    for (uint32_t i = 0; i < split.tensorNum && i < MAX_TENSORS; ++i) {
        partial[i] = 0.0f;
    }
    const float p = foreach::ReadScalar(scalar);
    NormOp op{{}, p, p > 3.0e38f, partial};
    {
        GM_ADDR lists[] = {x};
        foreach::ListKernel<DTYPE_X, NormOp> kernel;
        kernel.Init(lists, nullptr, split);
        kernel.Process(op);
    }
    Finish<DTYPE_X>(y, workspace, op, split.tensorNum);
}
