#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// g *= invScale in place; until a non-finite value was seen, every tile is also checked: x * 0 is 0
// for finite x and NaN for inf and NaN, so the sum of x * 0 over the tile is NaN exactly when the
// tile holds a non-finite value.
struct UnscaleOp : foreach::OpBase {
    static constexpr uint32_t TMP = 3;  // x * 0, ReduceSum work area, result
    float invScale;
    bool found = false;

    __aicore__ inline void operator()(const LocalTensor<float>* in, const LocalTensor<float>& out,
                                      const LocalTensor<float>* tmp, uint32_t n)
    {
        if (!found) {
            Muls(tmp[0], in[0], 0.0f, n);
            ReduceSum(tmp[2], tmp[0], tmp[1], n);
            event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(e);
            WaitFlag<HardEvent::V_S>(e);
            const float v = tmp[2].GetValue(0);
            found = v != v;
        }
        Muls(out, in[0], invScale, n);
    }
};

extern "C" __global__ __aicore__ void foreach_non_finite_check_and_unscale(
    GM_ADDR scaled_grads, GM_ADDR found_inf, GM_ADDR inv_scale, GM_ADDR scaled_grads_out, GM_ADDR found_inf_out,
    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR lists[] = {scaled_grads};
    UnscaleOp op{{}, foreach::ReadScalar(inv_scale)};
    foreach::Run<DTYPE_SCALED_GRADS>(lists, scaled_grads_out, FOREACH_SPLIT(t), op);
    // Only cores that saw a non-finite value write the flag (all write the same 1.0f).
    if (op.found) {
        GlobalTensor<float> flag;
        flag.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(found_inf_out), 1);
        flag.SetValue(0, 1.0f);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(flag);
    }
}
