// MatmulAdd as a mixed kernel: the cube core of every AI core computes A @ B tiles into a float
// workspace slot (cube_kernels::RunMix); its two vector cores add C to half of the tile's rows each and round.
#include "kernel_operator.h"
#include "cube_vector_mix.h"

struct MatmulTiling {
    uint32_t m, n, k, tileM, tileN, tilesM, tilesN, batch;
};

template <typename T>
class MatmulAddProblem {
public:
    using InT = T;
    static constexpr uint32_t ROWS = 32;   // tile rows per vector step

    __aicore__ inline MatmulAddProblem(const MatmulTiling& t, GM_ADDR aAddr, GM_ADDR bAddr, GM_ADDR cAddr, GM_ADDR outAddr)
        : t_(t)
    {
        a.SetGlobalBuffer((__gm__ T*)aAddr, static_cast<uint64_t>(t.m) * t.k);
        b.SetGlobalBuffer((__gm__ T*)bAddr, static_cast<uint64_t>(t.k) * t.n);
        c_.SetGlobalBuffer((__gm__ T*)cAddr, static_cast<uint64_t>(t.m) * t.n);
        out_.SetGlobalBuffer((__gm__ T*)outAddr, static_cast<uint64_t>(t.m) * t.n);
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
    __aicore__ inline void InitVector(AscendC::TPipe* pipe)
    {
        pipe->InitBuffer(acc_, ROWS * cube_kernels::TILE_N * sizeof(float));
        pipe->InitBuffer(addend_, ROWS * cube_kernels::TILE_N * sizeof(float));
        pipe->InitBuffer(io_, ROWS * cube_kernels::TILE_N * sizeof(T));
    }
    __aicore__ inline void Epilogue(const cube_kernels::TileDesc& d, const AscendC::GlobalTensor<float>& acc, uint32_t row0,
                                    uint32_t rows)
    {
        const uint32_t nPad = cube_kernels::AlignUp(d.n, 16);
        AscendC::LocalTensor<float> x = acc_.Get<float>(), y = addend_.Get<float>();
        AscendC::LocalTensor<T> io = io_.Get<T>();
        for (uint32_t r = 0; r < rows; r += ROWS) {
            const uint32_t cnt = rows - r < ROWS ? rows - r : ROWS;
            const uint64_t g = static_cast<uint64_t>(d.m0 + row0 + r) * t_.n + d.n0;
            cube_kernels::LoadRows(x, acc[static_cast<uint64_t>(row0 + r) * d.n], cnt, d.n, d.n, nPad);
            cube_kernels::LoadRows(io, c_[g], cnt, d.n, t_.n, nPad);
            cube_kernels::LoadsDone();
            AscendC::Cast(y, io, AscendC::RoundMode::CAST_NONE, cnt * nPad);
            AscendC::Add(x, x, y, cnt * nPad);
            AscendC::Cast(io, x, AscendC::RoundMode::CAST_RINT, cnt * nPad);
            cube_kernels::ComputeDone();
            cube_kernels::StoreRows(out_[g], io, cnt, d.n, t_.n, nPad);
            cube_kernels::StoresDone();
        }
    }

    AscendC::GlobalTensor<T> a, b;

private:
    MatmulTiling t_;
    AscendC::GlobalTensor<T> c_, out_;
    AscendC::TBuf<AscendC::TPosition::VECCALC> acc_, addend_, io_;
};

extern "C" __global__ __aicore__ void matmul_add(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR out, GM_ADDR workspace,
                                                 GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA_WITH_STRUCT(MatmulTiling, t, tiling);
    MatmulAddProblem<DTYPE_A> problem(t, a, b, c, out);
    cube_kernels::RunMix(problem, AscendC::GetUserWorkspace(workspace));
}
