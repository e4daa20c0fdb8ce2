// QuantMatmul as a mixed kernel: cube cores multiply int8 tiles into int32 workspace slots
// (cube_kernels::RunMix), vector cores dequantise each tile's rows with the column and token scales.
#include "kernel_operator.h"
#include "cube_vector_mix.h"

using namespace AscendC;

struct MatmulTiling {
    uint32_t m, n, k, tileM, tileN, tilesM, tilesN, batch;
};

class QuantProblem {
public:
    using InT = int8_t;

    __aicore__ inline QuantProblem(const MatmulTiling& t, GM_ADDR aAddr, GM_ADDR bAddr, GM_ADDR scale, GM_ADDR pts,
                                   GM_ADDR outAddr)
        : t_(t)
    {
        a.SetGlobalBuffer((__gm__ int8_t*)aAddr, static_cast<uint64_t>(t.m) * t.k);
        b.SetGlobalBuffer((__gm__ int8_t*)bAddr, static_cast<uint64_t>(t.k) * t.n);
        scale_.SetGlobalBuffer((__gm__ half*)scale, t.n);
        pts_.SetGlobalBuffer((__gm__ half*)pts, t.m);
        out_.SetGlobalBuffer((__gm__ half*)outAddr, static_cast<uint64_t>(t.m) * t.n);
    }
    __aicore__ inline uint32_t TileCount() const { return t_.tilesM * t_.tilesN; }
    __aicore__ inline void Tile(uint32_t i, cube_kernels::TileDesc& d) const
    {
        d.m0 = (i / t_.tilesN) * t_.tileM;
        d.n0 = (i % t_.tilesN) * t_.tileN;
        d.m = t_.m - d.m0 < t_.tileM ? t_.m - d.m0 : t_.tileM;
        d.n = t_.n - d.n0 < t_.tileN ? t_.n - d.n0 : t_.tileN;
        d.k = t_.k;
        d.aOff = static_cast<uint64_t>(d.m0) * t_.k;
        d.lda = t_.k;
        d.bOff = d.n0;
        d.ldb = t_.n;
    }
    __aicore__ inline void InitVector(TPipe* pipe) { epilogue_.Init(pipe); }
    __aicore__ inline void Epilogue(const cube_kernels::TileDesc& d, const GlobalTensor<int32_t>& acc, uint32_t row0, uint32_t rows)
    {
        epilogue_.Run(d.n, acc, row0, rows, scale_[d.n0], pts_[d.m0], out_[static_cast<uint64_t>(d.m0) * t_.n + d.n0], t_.n);
    }

    GlobalTensor<int8_t> a, b;

private:
    MatmulTiling t_;
    GlobalTensor<half> scale_, pts_, out_;
    cube_kernels::DequantEpilogue<half, half> epilogue_;
};

extern "C" __global__ __aicore__ void quant_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR scale, GM_ADDR perTokenScale, GM_ADDR out,
                                                   GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
    QuantProblem problem(t, a, b, scale, perTokenScale, out);
    cube_kernels::RunMix(problem, GetUserWorkspace(workspace));
}
