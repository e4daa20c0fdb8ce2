// npukb_sim/cube_engine.h -- the arithmetic of the simulated cube unit, compiled once per machine with
// optimisation (runtime/cube_engine.cpp) so that kernels built at -O1 still multiply fast. The kernel
// headers (npukb_sim/kernel/cube_mmad.h) check operands and call into it. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

namespace npukb {

enum class CubeInput : int { F16 = 0, BF16, F32, S8, U8, S4 };

// One Mmad on raw buffers in the hardware layouts:
//  a: L0A, "zZ": ceil(m/16) x ceil(k/k0) fractals, row-major over fractals, each 16 rows x k0 row-major;
//  b: L0B, "nZ": ceil(k/k0) x ceil(n/16) fractals, row-major over fractals, each stored as 16 (n) rows
//     x k0 (k) (column-major k0 x 16);
//  c: L0C, "NZ": ceil(n/16) x ceil(m/16) fractals of 16 x 16, column-major over fractals, row-major
//     inside; float for floating inputs, int32 for 8-bit inputs.
// k0 = 32 bytes / input size (64 for int4b_t, two per byte, the low nibble first). Every 16-aligned row and column is computed (padding rows/cols of A and
// B contribute whatever they hold, as on hardware); only the first k elements along K are summed.
// init: 0 = accumulate into c, 1 = start from zero, 2 = start from bias (n values, float or int32,
// broadcast over rows). Accumulation is in fp32 (int32 for 8-bit inputs) in increasing k order.
// Variants: k_frac (fractals per fractal row along K in L0A/L0B; 0 = ceil(k/k0), Mmad's kDirectionAlign
// gives 2 * ceil(k/16) for float); gemv (m == 1: A is k contiguous elements, rows 1..15 of the result
// fractals get no A contribution); hf32 (float inputs rounded to 11 mantissa bits first: 1 ties to even,
// 2 ties toward zero); sparse_index (MmadWithSparse, int8 only: B holds k/2 dense rows, the 2-bit index
// of each B element picks the A column of its group of 4; see cube_engine.cpp).
struct MmadJob {
  CubeInput input = CubeInput::F16;
  const void* a = nullptr;
  const void* b = nullptr;
  void* c = nullptr;
  const void* bias = nullptr;
  int m = 0;
  int n = 0;
  int k = 0;
  int init = 1;
  int k_frac = 0;
  bool gemv = false;
  int hf32 = 0;
  const std::uint8_t* sparse_index = nullptr;
};

// HF32 rounding of one float (mode 1: nearest, ties to even; 2: nearest, ties toward zero).
float hf32_round(float v, int mode);

void cube_mmad(const MmadJob& job);

// A dense product for the Matmul high-level API: C (m x n, row-major, float or int32, fully written)
// = A (m x k) x B (k x n), A(i, p) = a[i * lda + p] (or a[p * lda + i] when trans_a), B(p, j) =
// b[p * ldb + j] (or b[j * ldb + p] when trans_b). Same accumulation as cube_mmad.
struct GemmJob {
  CubeInput input = CubeInput::F16;
  const void* a = nullptr;
  long long lda = 0;
  bool trans_a = false;
  const void* b = nullptr;
  long long ldb = 0;
  bool trans_b = false;
  void* c = nullptr;
  int m = 0;
  int n = 0;
  int k = 0;
  int hf32 = 0;   // as MmadJob::hf32 (Matmul::SetHF32)
};

void cube_gemm(const GemmJob& job);

}  // namespace npukb
