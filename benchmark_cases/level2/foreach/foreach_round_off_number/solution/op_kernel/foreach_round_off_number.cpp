#include "kernel_operator.h"
#include "foreach_kernel.h"
using namespace AscendC;

// The rounding mode arrives as a 1-element int8 tensor (1 rint, 2 floor, 3 ceil, 4 round, 5 trunc).
__aicore__ inline RoundMode ReadMode(GM_ADDR roundMode)
{
    GlobalTensor<int8_t> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(roundMode), 1);
    switch (g.GetValue(0)) {
        case 2: return RoundMode::CAST_FLOOR;
        case 3: return RoundMode::CAST_CEIL;
        case 4: return RoundMode::CAST_ROUND;
        case 5: return RoundMode::CAST_TRUNC;
        default: return RoundMode::CAST_RINT;
    }
}

// y_i = round(x_i) under round_mode (1 nearest-even, 2 floor, 3 ceil, 4 half away from zero, 5 trunc)
struct RoundOffNumberOp : foreach::OpBase {
    static constexpr uint32_t TMP = 1;
    RoundMode mode = RoundMode::CAST_RINT;
    __aicore__ inline void Load(GM_ADDR roundMode) { mode = ReadMode(roundMode); }
    FOREACH_COMPUTE
    {
        LocalTensor<int32_t> k = tmp[0].ReinterpretCast<int32_t>();
        Cast(k, in[0], mode, n);
        Cast(out, k, RoundMode::CAST_NONE, n);
    }
};

extern "C" __global__ __aicore__ void foreach_round_off_number(GM_ADDR x, GM_ADDR round_mode, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    foreach::RunLists<DTYPE_X, RoundOffNumberOp>({x}, y, tiling, round_mode);
}
