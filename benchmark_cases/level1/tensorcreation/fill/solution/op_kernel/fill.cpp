#include "fill_kernel.h"
using namespace AscendC;

// Every tile is one Duplicate of value's bit pattern (any 2- or 4-byte dtype, bfloat16 included).
template <typename T>
struct FillGen {
    fill_kernels::Bits<T> bits;
    __aicore__ inline void operator()(const LocalTensor<T>& y, uint64_t, uint32_t n, uint32_t) const
    {
        LocalTensor<fill_kernels::Bits<T>> b = y.template ReinterpretCast<fill_kernels::Bits<T>>();
        Duplicate(b, bits, n);
    }
};

extern "C" __global__ __aicore__ void fill(GM_ADDR value, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    FillGen<DTYPE_VALUE> gen{fill_kernels::ReadScalar<fill_kernels::Bits<DTYPE_VALUE>>(value)};
    fill_kernels::Writer<DTYPE_VALUE, FillGen<DTYPE_VALUE>> writer(gen);
    writer.Init(y, t.totalLength, t.unitsPerCore, t.bigCoreNum, t.tileLength);
    writer.Process();
}
