#include "fill_kernel.h"
using namespace AscendC;

// ramp[i] = i * step is built once per core (8 scalar writes, then doubling: ramp[len + i] =
// ramp[i] + len * step); tile values are
// ramp + (start + step * first), computed in float32 (int32 for int32) and rounded once.
template <typename T>
struct ArangeGen {
    using C = std::conditional_t<std::is_same_v<T, int32_t>, int32_t, float>;
    C start;
    C step;
    LocalTensor<C> ramp;
    LocalTensor<float> result;

    __aicore__ inline void Setup(const LocalTensor<C>& rampPlane, const LocalTensor<float>& resultPlane,
                                 uint32_t tile)
    {
        ramp = rampPlane;
        result = resultPlane;
        for (int32_t i = 0; i < 8; ++i) {
            ramp.SetValue(i, static_cast<C>(i) * step);
        }
        PipeBarrier<PIPE_ALL>();  // scalar writes land before the vector unit reads them
        for (uint32_t len = 8; len < tile; len *= 2) {
            const uint32_t count = len < tile - len ? len : tile - len;
            Adds(ramp[len], ramp, static_cast<C>(len) * step, count);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void operator()(const LocalTensor<T>& y, uint64_t first, uint32_t n, uint32_t) const
    {
        if constexpr (std::is_same_v<T, int32_t>) {
            Adds(y, ramp, static_cast<int32_t>(start + step * static_cast<int32_t>(first)), n);
        } else if constexpr (std::is_same_v<T, float>) {
            Adds(y, ramp, start + step * static_cast<float>(first), n);
        } else {
            Adds(result, ramp, start + step * static_cast<float>(first), n);
            Cast(y, result, RoundMode::CAST_RINT, n);
        }
    }
};

template <typename T>
__aicore__ inline typename ArangeGen<T>::C ReadAsCompute(GM_ADDR addr)
{
    if constexpr (std::is_same_v<T, int32_t> || std::is_same_v<T, float>) {
        return fill_kernels::ReadScalar<T>(addr);
    } else {
        return static_cast<float>(fill_kernels::ReadScalar<T>(addr));
    }
}

extern "C" __global__ __aicore__ void arange(GM_ADDR start, GM_ADDR step, GM_ADDR out, GM_ADDR workspace,
                                             GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    using T = DTYPE_START;
    using C = typename ArangeGen<T>::C;
    ArangeGen<T> gen{ReadAsCompute<T>(start), ReadAsCompute<T>(step)};
    fill_kernels::Writer<T, ArangeGen<T>> writer(gen);
    writer.Init(out, t.totalLength, t.unitsPerCore, t.bigCoreNum, t.tileLength);
    TBuf<QuePosition::VECCALC> scratch;
    writer.Pipe().InitBuffer(scratch, t.tileLength * sizeof(float) * 2);
    LocalTensor<float> planes = scratch.Get<float>();
    gen.Setup(planes.ReinterpretCast<C>(), planes[t.tileLength], t.tileLength);
    writer.Process();
}
