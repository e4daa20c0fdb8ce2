#include "fill_kernel.h"
using namespace AscendC;

// Every tile is one Duplicate of value's bit pattern (any 2- or 4-byte dtype, bfloat16 included).
template <typename T>
struct FillGen {
    l1f::Bits<T> bits;
    __aicore__ inline void operator()(const LocalTensor<T>& y, uint64_t, uint32_t n, uint32_t) const
    {
        LocalTensor<l1f::Bits<T>> b = y.template ReinterpretCast<l1f::Bits<T>>();
        Duplicate(b, bits, n);
    }
};

extern "C" __global__ __aicore__ void fill(GM_ADDR value, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    FillGen<DTYPE_VALUE> gen{l1f::ReadScalar<l1f::Bits<DTYPE_VALUE>>(value)};
    l1f::Writer<DTYPE_VALUE, FillGen<DTYPE_VALUE>> writer(gen);
    writer.Init(y, t.totalLength, t.unitsPerCore, t.bigCoreNum, t.tileLength);
    writer.Process();
}
