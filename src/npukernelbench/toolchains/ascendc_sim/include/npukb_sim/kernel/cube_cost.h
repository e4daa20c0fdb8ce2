// npukb_sim/kernel/cube_cost.h -- the cube side of the first-order cost model (an ESTIMATE; see
// docs/cost-model.md): dataflow clocks for L1, L0A, L0B, L0C, BT and FB, and the cycle costs of the
// cube pipes MTE1 (L1 -> L0A/L0B/BT), M (Mmad) and FIX (L0C -> GM/L1). GM -> L1 copies run on MTE2 with
// the DMA model of state.h. Clean-room part of ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>

#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/types.h"

namespace npukb {
namespace kern {

using AscendC::Hardware;

// Dataflow granule of the cube buffers: readiness is tracked per 512 bytes.
constexpr std::uint32_t kCubeGranule = 512;
constexpr std::uint32_t kL1Granules = static_cast<std::uint32_t>(kL1Bytes / kCubeGranule);
constexpr std::uint32_t kL0aGranules = static_cast<std::uint32_t>(kL0aBytes / kCubeGranule);
constexpr std::uint32_t kL0bGranules = static_cast<std::uint32_t>(kL0bBytes / kCubeGranule);
constexpr std::uint32_t kL0cGranules = static_cast<std::uint32_t>(kL0cBytes / kCubeGranule);
constexpr std::uint32_t kBtGranules = static_cast<std::uint32_t>((kBiasTableBytes + kCubeGranule - 1) / kCubeGranule);
constexpr std::uint32_t kFbGranules = static_cast<std::uint32_t>((kFixBufBytes + kCubeGranule - 1) / kCubeGranule);

// Cube throughput and bandwidths of the model (cycles at 1.85 GHz).
constexpr double kMmadStartCycles = 24.0;      // issue-to-first-fractal latency of one Mmad
constexpr double kMte1BytesPerCycle = 256.0;   // L1 -> L0A/L0B (Load2D), per instruction
constexpr double kMte1StartCycles = 16.0;
constexpr double kFixBytesPerCycle = 64.0;     // L0C -> L1 (FIX pipe), on the destination side
constexpr double kFixStartCycles = 32.0;

struct CubeSpan {
  Hardware hw = Hardware::L1;
  std::uint32_t begin = 0;   // byte offset inside the buffer
  std::uint32_t end = 0;     // exclusive
};

// The cube unit's configuration registers (set by the Set* APIs of the cube family, read by the
// instructions they configure). All-zero is the power-on state: the members encode their documented
// defaults as 0.
struct CubeRegs {
  // Load3D feature-map descriptions (SetFmatrix; [0] left, [1] right) and padding (SetLoadDataPaddingValue).
  std::uint16_t fm_h[2];
  std::uint16_t fm_w[2];
  std::uint8_t fm_pad[2][4];
  bool fm_set[2];
  std::uint64_t pad_bits;          // the padding value's bytes (little endian, element size of the setter)
  std::uint8_t pad_bytes;          // 0: never set
  std::uint32_t boundary;          // SetLoadDataBoundary (0: none)
  bool repeat_set;                 // SetLoadDataRepeat; unset = one repeat
  std::uint16_t repeat_stride;
  std::uint8_t repeat_time;
  std::uint8_t repeat_mode;
  bool hf32;                       // SetHF32Mode(ENABLE)
  bool hf32_to_zero;               // SetHF32TransMode(NEAREST_ZERO); default NEAREST_EVEN
  bool mm_row_major;               // SetMMRowMajor (default: column major, M first)
  std::uint64_t fix_quant_scalar;  // SetFixpipePreQuantFlag
  bool nz2nd_set;                  // SetFixpipeNz2ndFlag
  std::uint16_t nz2nd_num;
  std::uint16_t nz2nd_src_stride;
  std::uint16_t nz2nd_dst_stride;
  bool fix_quant_set;              // SetFixPipeConfig: FB offset of the per-channel quant tensor
  std::uint32_t fix_quant_addr;
  std::uint8_t* sparse_index;      // LoadDataWithSparse's index buffer (a quarter of L0B, allocated on use):
  std::uint64_t sparse_loaded[2];  // index fractal f (128 B) belongs to the L0B fractal at byte 512 f; loaded bits
  bool regist_matmul;              // REGIST_MATMUL_OBJ ran on this core (excludes the cube group API)
  bool cube_group;                 // the cube group API (cube_group.h) ran on this core
  bool group_served;               // this AIC served a CreateCubeResGroup group
  bool aipp_init;                  // the AIPP registers (SetAippFunctions; cube_aipp.h's AippState)
  alignas(8) unsigned char aipp[192];
};

struct CubeCostState {
  double ready[kL1Granules + kL0aGranules + kL0bGranules + kL0cGranules + kBtGranules + kFbGranules];
  double used[kL1Granules + kL0aGranules + kL0bGranules + kL0cGranules + kBtGranules + kFbGranules];
  CubeRegs regs;
};

// Like KState (state.h), the cube clocks live inside the block's BlockState (launcher-owned memory the
// kernel cannot write), never in thread-local storage.
static_assert(sizeof(CubeCostState) <= kCubeStateBytes, "CubeCostState outgrew BlockState::cube_storage");
static_assert(alignof(CubeCostState) <= 64, "CubeCostState needs more alignment than BlockState::cube_storage has");

inline CubeCostState& cube_cost_state() {
  BlockState& b = block();
  if (b.cube_state == nullptr) {
    auto* st = new (b.cube_storage) CubeCostState();
    std::memset(st, 0, sizeof *st);
    b.cube_state = st;
  }
  return *static_cast<CubeCostState*>(b.cube_state);
}

inline CubeRegs& cube_regs() { return cube_cost_state().regs; }

// First granule index of a buffer inside CubeCostState, and its granule count.
inline void cube_granules(Hardware hw, std::uint32_t& first, std::uint32_t& count) {
  switch (hw) {
    case Hardware::L1: first = 0; count = kL1Granules; return;
    case Hardware::L0A: first = kL1Granules; count = kL0aGranules; return;
    case Hardware::L0B: first = kL1Granules + kL0aGranules; count = kL0bGranules; return;
    case Hardware::L0C: first = kL1Granules + kL0aGranules + kL0bGranules; count = kL0cGranules; return;
    case Hardware::BIAS: first = kL1Granules + kL0aGranules + kL0bGranules + kL0cGranules; count = kBtGranules; return;
    case Hardware::FIXBUF:
      first = kL1Granules + kL0aGranules + kL0bGranules + kL0cGranules + kBtGranules;
      count = kFbGranules;
      return;
    default: first = 0; count = 0; return;
  }
}

template <typename F>
inline void for_granules(const CubeSpan& s, F&& f) {
  std::uint32_t first = 0, count = 0;
  cube_granules(s.hw, first, count);
  if (count == 0 || s.end <= s.begin) return;
  const std::uint32_t lo = s.begin / kCubeGranule;
  const std::uint32_t hi = std::min(count, (s.end + kCubeGranule - 1) / kCubeGranule);
  for (std::uint32_t g = lo; g < hi; ++g) f(first + g);
}

// Schedule one cube-side instruction on `pipe` taking `cost` cycles, reading the `src` spans and
// writing the `dst` spans of the cube buffers (dataflow as for UB in state.h). Returns its end time.
inline double schedule_cube(PipeId pipe, double cost, const CubeSpan* src, int nsrc, const CubeSpan* dst, int ndst) {
  KState& s = state();
  CubeCostState& c = cube_cost_state();
  s.issue += kIssueCycles;
  double start = std::max(s.issue, s.pipe[pipe]);
  for (int i = 0; i < nsrc; ++i) for_granules(src[i], [&](std::uint32_t g) { start = std::max(start, c.ready[g]); });
  for (int i = 0; i < ndst; ++i) {
    for_granules(dst[i], [&](std::uint32_t g) { start = std::max(start, std::max(c.ready[g], c.used[g])); });
  }
  const double end = start + cost;
  for (int i = 0; i < nsrc; ++i) for_granules(src[i], [&](std::uint32_t g) { c.used[g] = std::max(c.used[g], end); });
  for (int i = 0; i < ndst; ++i) for_granules(dst[i], [&](std::uint32_t g) { c.ready[g] = end; });
  s.pipe[pipe] = end;
  s.blk->pipe_cycles[pipe] += cost;
  publish(s);
  return end;
}

// Mmad: one 16 x 16 x k0 fractal multiply-accumulate per cycle (k0 = 32 bytes of the input type: 16
// for half/bfloat16, 8 for float, 32 for int8) after a fixed start-up.
inline double mmad_cycles(std::uint32_t m, std::uint32_t n, std::uint32_t k, std::uint32_t k0) {
  const double mf = (m + 15) / 16, nf = (n + 15) / 16, kf = (k + k0 - 1) / k0;
  return kMmadStartCycles + mf * nf * kf;
}

inline double mte1_cycles(std::uint64_t bytes) { return kMte1StartCycles + static_cast<double>(bytes) / kMte1BytesPerCycle; }

}  // namespace kern
}  // namespace npukb
