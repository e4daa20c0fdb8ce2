// cube_engine.cpp -- arithmetic of the simulated cube unit (npukb_sim/cube_engine.h). Compiled once per
// machine with -O2 -ffp-contract=off; the inner kernels are cloned for x86-64-v3 (AVX2) and picked at
// load time, so results are the same bits on every x86-64 machine (no FMA contraction: for half and
// bfloat16 inputs every product is exact in float anyway). Clean-room part of ascendc-sim.
#include "npukb_sim/cube_engine.h"

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace {

using v8f = float __attribute__((vector_size(32)));
using v8i = std::int32_t __attribute__((vector_size(32)));

// half -> float through a table built once (exact).
struct HalfTable {
  float v[65536];
  HalfTable() {
    for (std::uint32_t h = 0; h < 65536; ++h) {
      const std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ffu;
      std::uint32_t bits;
      if (exp == 0) {
        if (man == 0) {
          bits = sign;
        } else {  // subnormal: normalise
          int e = -1;
          std::uint32_t mm = man;
          do { ++e; mm <<= 1; } while ((mm & 0x400u) == 0);
          bits = sign | static_cast<std::uint32_t>(127 - 15 - e) << 23 | (mm & 0x3ffu) << 13;
        }
      } else if (exp == 31) {
        bits = sign | 0x7f800000u | man << 13;
      } else {
        bits = sign | (exp + 127 - 15) << 23 | man << 13;
      }
      std::memcpy(&v[h], &bits, 4);
    }
  }
};

const HalfTable& half_table() {
  static const HalfTable t;
  return t;
}

template <typename T>
inline T load_raw(const void* base, std::size_t index) {
  T v;
  std::memcpy(&v, static_cast<const char*>(base) + index * sizeof(T), sizeof(T));
  return v;
}

// Elements of one 32-byte fractal row (k0) of each input type.
int k0_of(npukb::CubeInput in) {
  switch (in) {
    case npukb::CubeInput::F16: case npukb::CubeInput::BF16: return 16;
    case npukb::CubeInput::F32: return 8;
    case npukb::CubeInput::S4: return 64;
    default: return 32;
  }
}

// Element `index` of a zZ / nZ operand as float / int32.
struct ElemF16 {
  const float* table = half_table().v;
  float operator()(const void* base, std::size_t index) const { return table[load_raw<std::uint16_t>(base, index)]; }
};
struct ElemBF16 {
  float operator()(const void* base, std::size_t index) const {
    const std::uint32_t bits = static_cast<std::uint32_t>(load_raw<std::uint16_t>(base, index)) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
};
struct ElemF32 {
  float operator()(const void* base, std::size_t index) const { return load_raw<float>(base, index); }
};
struct ElemS8 {
  std::int32_t operator()(const void* base, std::size_t index) const { return load_raw<std::int8_t>(base, index); }
};
struct ElemU8 {
  std::int32_t operator()(const void* base, std::size_t index) const { return load_raw<std::uint8_t>(base, index); }
};
// int4b_t: two per byte, element 2i in the low nibble, 2i + 1 in the high one; sign-extended.
struct ElemS4 {
  std::int32_t operator()(const void* base, std::size_t index) const {
    const std::uint8_t byte = load_raw<std::uint8_t>(base, index / 2);
    const int nib = index % 2 == 0 ? byte & 0xf : byte >> 4;
    return nib >= 8 ? nib - 16 : nib;
  }
};

// c (one 16-column block of NZ, rows of 16) += a_rows (rows x k, row-major) * panel (k x 16).
__attribute__((target_clones("arch=x86-64-v3", "default")))
void kernel_f32(float* c, const float* a, const float* panel, int rows, int k, int lda) {
  for (int i = 0; i < rows; i += 4) {
    v8f acc[4][2];
    for (int r = 0; r < 4; ++r) {
      std::memcpy(&acc[r][0], c + (i + r) * 16, 32);
      std::memcpy(&acc[r][1], c + (i + r) * 16 + 8, 32);
    }
    const float* a0 = a + static_cast<std::size_t>(i) * lda;
    for (int p = 0; p < k; ++p) {
      v8f b0, b1;
      std::memcpy(&b0, panel + p * 16, 32);
      std::memcpy(&b1, panel + p * 16 + 8, 32);
      for (int r = 0; r < 4; ++r) {
        const float s = a0[static_cast<std::size_t>(r) * lda + p];
        const v8f sv = {s, s, s, s, s, s, s, s};
        acc[r][0] += sv * b0;
        acc[r][1] += sv * b1;
      }
    }
    for (int r = 0; r < 4; ++r) {
      std::memcpy(c + (i + r) * 16, &acc[r][0], 32);
      std::memcpy(c + (i + r) * 16 + 8, &acc[r][1], 32);
    }
  }
}

__attribute__((target_clones("arch=x86-64-v3", "default")))
void kernel_s32(std::int32_t* c, const std::int32_t* a, const std::int32_t* panel, int rows, int k, int lda) {
  for (int i = 0; i < rows; i += 4) {
    v8i acc[4][2];
    for (int r = 0; r < 4; ++r) {
      std::memcpy(&acc[r][0], c + (i + r) * 16, 32);
      std::memcpy(&acc[r][1], c + (i + r) * 16 + 8, 32);
    }
    const std::int32_t* a0 = a + static_cast<std::size_t>(i) * lda;
    for (int p = 0; p < k; ++p) {
      v8i b0, b1;
      std::memcpy(&b0, panel + p * 16, 32);
      std::memcpy(&b1, panel + p * 16 + 8, 32);
      for (int r = 0; r < 4; ++r) {
        const std::int32_t s = a0[static_cast<std::size_t>(r) * lda + p];
        const v8i sv = {s, s, s, s, s, s, s, s};
        acc[r][0] += sv * b0;
        acc[r][1] += sv * b1;
      }
    }
    for (int r = 0; r < 4; ++r) {
      std::memcpy(c + (i + r) * 16, &acc[r][0], 32);
      std::memcpy(c + (i + r) * 16 + 8, &acc[r][1], 32);
    }
  }
}

// HF32 keeps 11 of float's 23 mantissa bits.
template <typename Acc>
inline Acc hf32_if(Acc v, int mode) {
  if constexpr (std::is_same_v<Acc, float>) {
    return mode != 0 ? npukb::hf32_round(v, mode) : v;
  } else {
    (void)mode;
    return v;
  }
}

template <typename Acc, typename Elem, typename Kernel>
void run(const npukb::MmadJob& job, Elem elem, Kernel kernel) {
  const int k0 = k0_of(job.input);
  const int mp = (job.m + 15) / 16 * 16, np = (job.n + 15) / 16 * 16;
  const int k1 = job.k_frac > 0 ? job.k_frac : (job.k + k0 - 1) / k0, n1 = np / 16;
  const int hf = job.input == npukb::CubeInput::F32 ? job.hf32 : 0;
  thread_local std::vector<Acc> a_pack, panel;
  a_pack.resize(static_cast<std::size_t>(mp) * job.k);
  panel.resize(static_cast<std::size_t>(job.k) * 16);
  for (int i = 0; i < mp; ++i) {
    const std::size_t row_base = static_cast<std::size_t>(i / 16) * k1 * 16 * k0 + static_cast<std::size_t>(i % 16) * k0;
    for (int p = 0; p < job.k; ++p) {
      Acc v;
      if (job.gemv) v = i == 0 ? elem(job.a, static_cast<std::size_t>(p)) : Acc(0);
      else v = elem(job.a, row_base + static_cast<std::size_t>(p / k0) * 16 * k0 + p % k0);
      a_pack[static_cast<std::size_t>(i) * job.k + p] = hf32_if<Acc>(v, hf);
    }
  }
  Acc* c = static_cast<Acc*>(job.c);
  for (int nb = 0; nb < n1; ++nb) {
    for (int p = 0; p < job.k; ++p) {
      const std::size_t frac = (static_cast<std::size_t>(p / k0) * n1 + nb) * 16 * k0;
      for (int j = 0; j < 16; ++j) {
        panel[static_cast<std::size_t>(p) * 16 + j] = hf32_if<Acc>(elem(job.b, frac + j * k0 + p % k0), hf);
      }
    }
    Acc* block = c + static_cast<std::size_t>(nb) * mp * 16;
    if (job.init == 1) {
      std::memset(block, 0, sizeof(Acc) * mp * 16);
    } else if (job.init == 2) {
      for (int i = 0; i < mp; ++i) std::memcpy(block + i * 16, static_cast<const Acc*>(job.bias) + nb * 16, sizeof(Acc) * 16);
    }
    kernel(block, a_pack.data(), panel.data(), mp, job.k, job.k);
  }
}

// MmadWithSparse (int8): B (L0B, nZ) holds kd = ceil(k/2) dense rows; the index buffer has B's layout
// with 2-bit entries (entry e of a 128-byte index fractal in bits 2(e%4)..2(e%4)+1 of byte e/4). Dense
// rows 2g and 2g+1 of column j come from A's columns 4g..4g+3: the first at idx0, the second at
// max(idx0, 1 + idx1) (both on one element when idx0 >= 1 + idx1, as the documented selection table).
void run_sparse(const npukb::MmadJob& job) {
  constexpr int k0 = 32;
  const int mp = (job.m + 15) / 16 * 16, np = (job.n + 15) / 16 * 16;
  const int ka1 = (job.k + k0 - 1) / k0, n1 = np / 16;
  const int kd = (job.k + 1) / 2;
  const auto* a = static_cast<const std::int8_t*>(job.a);
  const auto* b = static_cast<const std::int8_t*>(job.b);
  auto* c = static_cast<std::int32_t*>(job.c);
  for (int nb = 0; nb < n1; ++nb) {
    std::int32_t* block = c + static_cast<std::size_t>(nb) * mp * 16;
    for (int i = 0; i < mp; ++i) {
      for (int jj = 0; jj < 16; ++jj) {
        std::int32_t acc = job.init == 0 ? block[i * 16 + jj]
                           : job.init == 2 ? static_cast<const std::int32_t*>(job.bias)[nb * 16 + jj] : 0;
        for (int g = 0; g < (kd + 1) / 2; ++g) {
          int sel[2] = {0, 0};
          std::int32_t bv[2] = {0, 0};
          for (int h = 0; h < 2; ++h) {
            const int p = 2 * g + h;
            if (p >= kd) continue;
            const std::size_t e = (static_cast<std::size_t>(p / k0) * n1 + nb) * 16 * k0 + jj * k0 + p % k0;
            bv[h] = b[e];
            sel[h] = (job.sparse_index[e / 4] >> (2 * (e % 4))) & 3;
          }
          const int first = sel[0];
          const int second = first > 1 + sel[1] ? first : 1 + sel[1];
          const int cols[2] = {4 * g + first, 4 * g + second};
          for (int h = 0; h < 2; ++h) {
            if (cols[h] >= job.k || bv[h] == 0) continue;
            const std::size_t ai = static_cast<std::size_t>(i / 16) * ka1 * 512 + static_cast<std::size_t>(cols[h] / k0) * 512 +
                                   static_cast<std::size_t>(i % 16) * k0 + cols[h] % k0;
            acc += static_cast<std::int32_t>(a[ai]) * bv[h];
          }
        }
        block[i * 16 + jj] = acc;
      }
    }
  }
}

template <typename Acc, typename Elem, typename Kernel>
void run_dense(const npukb::GemmJob& job, Elem elem, Kernel kernel) {
  const int mp = (job.m + 15) / 16 * 16, n1 = (job.n + 15) / 16;
  const int hf = job.input == npukb::CubeInput::F32 ? job.hf32 : 0;
  thread_local std::vector<Acc> a_pack, panel, block;
  a_pack.assign(static_cast<std::size_t>(mp) * job.k, Acc(0));
  panel.resize(static_cast<std::size_t>(job.k) * 16);
  block.resize(static_cast<std::size_t>(mp) * 16);
  for (int i = 0; i < job.m; ++i) {
    for (int p = 0; p < job.k; ++p) {
      const long long idx = job.trans_a ? static_cast<long long>(p) * job.lda + i : static_cast<long long>(i) * job.lda + p;
      a_pack[static_cast<std::size_t>(i) * job.k + p] = hf32_if<Acc>(elem(job.a, static_cast<std::size_t>(idx)), hf);
    }
  }
  Acc* c = static_cast<Acc*>(job.c);
  for (int nb = 0; nb < n1; ++nb) {
    for (int p = 0; p < job.k; ++p) {
      for (int jj = 0; jj < 16; ++jj) {
        const int j = nb * 16 + jj;
        Acc v = Acc(0);
        if (j < job.n) {
          const long long idx = job.trans_b ? static_cast<long long>(j) * job.ldb + p : static_cast<long long>(p) * job.ldb + j;
          v = hf32_if<Acc>(elem(job.b, static_cast<std::size_t>(idx)), hf);
        }
        panel[static_cast<std::size_t>(p) * 16 + jj] = v;
      }
    }
    std::memset(block.data(), 0, sizeof(Acc) * block.size());
    kernel(block.data(), a_pack.data(), panel.data(), mp, job.k, job.k);
    const int cols = job.n - nb * 16 < 16 ? job.n - nb * 16 : 16;
    for (int i = 0; i < job.m; ++i) std::memcpy(c + static_cast<std::size_t>(i) * job.n + nb * 16, block.data() + i * 16, sizeof(Acc) * cols);
  }
}

}  // namespace

namespace npukb {

float hf32_round(float v, int mode) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  if ((bits & 0x7f800000u) == 0x7f800000u) return v;   // Inf / NaN pass through
  const std::uint32_t low = bits & 0xfffu, base = bits & ~0xfffu;
  std::uint32_t r = base;
  if (low > 0x800u || (low == 0x800u && mode == 1 && (base & 0x1000u) != 0)) r = base + 0x1000u;
  float out;
  std::memcpy(&out, &r, 4);
  return out;
}

void cube_gemm(const GemmJob& job) {
  if (job.m <= 0 || job.n <= 0) return;
  if (job.k <= 0) {
    const std::size_t bytes = static_cast<std::size_t>(job.m) * job.n * 4;
    std::memset(job.c, 0, bytes);
    return;
  }
  switch (job.input) {
    case CubeInput::F16: run_dense<float>(job, ElemF16{}, kernel_f32); break;
    case CubeInput::BF16: run_dense<float>(job, ElemBF16{}, kernel_f32); break;
    case CubeInput::F32: run_dense<float>(job, ElemF32{}, kernel_f32); break;
    case CubeInput::S8: run_dense<std::int32_t>(job, ElemS8{}, kernel_s32); break;
    case CubeInput::U8: run_dense<std::int32_t>(job, ElemU8{}, kernel_s32); break;
    case CubeInput::S4: run_dense<std::int32_t>(job, ElemS4{}, kernel_s32); break;
  }
}


void cube_mmad(const MmadJob& job) {
  if (job.m <= 0 || job.n <= 0 || job.k <= 0) return;
  if (job.sparse_index != nullptr) {
    run_sparse(job);
    return;
  }
  switch (job.input) {
    case CubeInput::F16: run<float>(job, ElemF16{}, kernel_f32); break;
    case CubeInput::BF16: run<float>(job, ElemBF16{}, kernel_f32); break;
    case CubeInput::F32: run<float>(job, ElemF32{}, kernel_f32); break;
    case CubeInput::S8: run<std::int32_t>(job, ElemS8{}, kernel_s32); break;
    case CubeInput::U8: run<std::int32_t>(job, ElemU8{}, kernel_s32); break;
    case CubeInput::S4: run<std::int32_t>(job, ElemS4{}, kernel_s32); break;
  }
}

}  // namespace npukb
