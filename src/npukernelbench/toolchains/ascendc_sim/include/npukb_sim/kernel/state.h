// npukb_sim/kernel/state.h -- per-block kernel-API state (mask register, atomic mode, event flags) and
// the first-order cost model (an ESTIMATE; see docs/cost-model.md). Clean-room part of ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>
#include <new>
#include <string>

#include "npukb_sim/runtime.h"

namespace npukb {
namespace kern {

constexpr std::uint32_t kUbBlocks = static_cast<std::uint32_t>(kUbBytes / 32);
constexpr int kEventKinds = 64;
constexpr int kEventIds = 8;

// Vector cost classes: cycles per 256-byte repeat.
enum class VecCost : int { Simple = 2, Div = 4, Transcend = 4, Reduce = 3, HighLevel = 24, Sigmoid = 14, Copy = 2 };

struct KState {
  BlockState* blk = nullptr;
  // Vector mask register and mode.
  bool counter_mode = false;
  std::uint64_t mask[2] = {~0ull, ~0ull};
  // Atomic configuration of moves into GM (atomic.h): 0 none, 1 add, 2 max, 3 min, and the data type.
  int atomic_op = 0;
  int atomic_kind = 0;  // AtomicDtype value of the configuration (atomic.h)
  // Compare-mask register (Compare without dst / SetCmpMask), 128 bits.
  std::uint64_t cmp_mask[2] = {0, 0};
  // Special registers written by reductions: the sum of vcadd in accumulate mode (GetAccVal), and the
  // extreme and its index of the last WholeReduceMax/Min (GetReduceMaxMinCount), as raw element bits.
  std::uint64_t acc_val = 0;
  std::uint64_t max_min_value = 0;
  std::uint64_t max_min_index = 0;
  // DEQSCALE register (64 bits, SetDeqScale): bits 0-15 the half scale of the int32_t -> half
  // conversions (Cast, CastDequant, AddDeqRelu); or bits 0-31 a float scale, 37-45 a 9-bit offset and
  // bit 46 the sign mode of CastDequant int16_t -> b8; or, in vector mode, the UB address of 16
  // quantization words (vdeq_ub, a byte offset). Half 1.0 until set.
  std::uint64_t deq_reg = 0x3C00u;
  std::uint32_t vdeq_ub = ~0u;
  // DataCopyPad's padding value register (SetPadValue): raw bits, and whether it was set.
  std::uint64_t pad_value = 0;
  bool pad_value_set = false;
  // VA0..VA7 address registers (set_va_reg_sb): 8 UB addresses each.
  std::uint64_t va[8][8] = {};
  // Cost model clocks (cycles).
  double issue = 0.0;
  double pipe[PIPE_ID_COUNT] = {};
  double flag_time[kEventKinds][kEventIds] = {};
  int flag_count[kEventKinds][kEventIds] = {};
  double ub_ready[kUbBlocks] = {};   // when the last write of a 32-byte UB block completes
  double ub_used[kUbBlocks] = {};    // when the last read of a 32-byte UB block completes
  // TPipe bookkeeping: one live TPipe per block; a new TPipe, Reset or Destroy starts a new generation
  // (buffers sized in an older one are released).
  const void* live_pipe = nullptr;
  std::uint32_t pipe_generation = 0;
  // Event IDs the buffers of TQues hold, per TPosition (the TQue Buffer limit: 8 per position on the
  // 910B), and the IDs TPipe::AllocEventID handed out, per HardEvent (bit i: ID i).
  int que_events[32] = {};
  // Buffers of TQues in use (allocated, not yet freed) per TPosition: each holds one of the position's
  // event IDs, so more than 8 at once fail on the device whatever InitBuffer sized.
  int que_live[32] = {};
  std::uint32_t alloc_event_ids[kEventKinds] = {};
  // Hardware buffers a LocalMemAllocator manages (bit per AscendC::Hardware value): one each per kernel.
  std::uint32_t local_allocators = 0;
  // SetSysWorkspace: the system workspace this block set (null: the launch's workspace).
  std::uint8_t* sys_workspace = nullptr;
  // Soft SyncAll rounds this block has passed (its gmWorkspace slot holds this count), and its
  // WaitPreBlock calls since InitDetermineComputeWorkspace.
  std::int32_t soft_sync_rounds = 0;
  std::int32_t determine_waits = 0;
  // CTRL[48] (SetCtrlSpr / SetSaturationFlag): 0, the default, is the floating-point saturation mode.
  bool ctrl_spr48 = false;
  // UB access exception registers (CheckLocalMemoryIA): per register the checked 32-byte blocks
  // (start, end] and the access kinds it catches (IaKind bits); ia_enabled has a bit per enabled register.
  std::uint32_t ia_start[4] = {};
  std::uint32_t ia_end[4] = {};
  std::uint8_t ia_kinds[4] = {};
  std::uint8_t ia_enabled = 0;
};

// Access kinds of the UB access exception registers (bit numbers of KState::ia_kinds).
enum IaKind : int { IA_SCALAR_READ = 0, IA_SCALAR_WRITE, IA_VECTOR_READ, IA_VECTOR_WRITE, IA_MTE_READ, IA_MTE_WRITE };

// The block's API state lives inside its BlockState (launcher-owned memory the kernel cannot write),
// never in thread-local storage: a kernel that finds the thread pointer finds no clocks there.
static_assert(sizeof(KState) <= kApiStateBytes, "KState outgrew BlockState::api_storage: raise kApiStateBytes");
static_assert(alignof(KState) <= 64, "KState needs more alignment than BlockState::api_storage has");

inline KState& state() {
  BlockState& b = block();
  if (b.api_state == nullptr) {
    KState* st = new (b.api_storage) KState();
    st->blk = &b;
    b.api_state = st;
  }
  return *static_cast<KState*>(b.api_state);
}

// ---- cost model ----------------------------------------------------------------------------------
inline double cycles_from_ns(double ns) { return ns * kClockGhz; }

// Effective bandwidth (GB/s == bytes/ns) of one DMA transfer of `bytes`, interpolated in log2(size)
// between the points of docs/cost-model.md. GM->UB: 7 @1KiB, 68 @16KiB, 78 @32KiB+. UB->GM: 10 @1KiB, 95 @16KiB, 110 @32KiB+.
inline double dma_bandwidth(double bytes, bool to_gm) {
  const double p1 = to_gm ? 10.0 : 7.0, p16 = to_gm ? 95.0 : 68.0, p32 = to_gm ? 110.0 : 78.0;
  if (bytes <= 1024.0) return p1;
  const double l = __builtin_log2(bytes);
  if (l <= 14.0) return p1 + (p16 - p1) * (l - 10.0) / 4.0;
  if (l <= 15.0) return p16 + (p32 - p16) * (l - 14.0);
  return p32;
}

// The block's fair share of HBM: n blocks of a launch move data at once, so none gets more than 1/n of
// the aggregate bandwidth (~20 busy cores saturate it; below that the per-core figures bind).
inline double hbm_share(int block_num) { return kHbmGBs / static_cast<double>(block_num > 1 ? block_num : 1); }

inline double dma_cycles(std::uint64_t bytes, std::uint32_t block_count, bool to_gm, bool gm_512_aligned) {
  if (bytes == 0) return cycles_from_ns(30.0);
  double bw = std::min(dma_bandwidth(static_cast<double>(bytes), to_gm), hbm_share(block().block_num));
  if (!gm_512_aligned) bw /= 1.4;
  double ns = static_cast<double>(bytes) / bw;
  if (bytes < 1024) ns = (1024.0 / bw) * (0.6 + 0.4 * static_cast<double>(bytes) / 1024.0);  // latency floor
  return cycles_from_ns(ns) + 8.0 * (block_count > 0 ? block_count - 1 : 0);
}

constexpr double kIssueCycles = 2.0;       // scalar unit issue per API instruction
constexpr double kVecStartCycles = 16.0;   // fixed start-up of a vector instruction
constexpr double kScalarUbCycles = 12.0;   // GetValue/SetValue on UB
constexpr double kScalarGmCycles = 200.0;  // GetValue/SetValue on GM (through the scalar data cache)
// The kernel's own scalar code (docs/cost-model.md, "Scalar code"): one executed basic block, and one
// 8-byte load or store of the kernel's own memory (stack, local arrays, globals: the scalar data cache).
constexpr double kScalarBlockCycles = 4.0;
constexpr double kScalarLocalCycles = 2.0;

// A span of UB bytes touched by an instruction.
struct Span {
  std::uint32_t begin = 0;  // byte offset in UB
  std::uint32_t end = 0;    // exclusive
};

inline void publish(KState& s) {
  double f = s.issue;
  for (int p = 0; p < PIPE_ID_COUNT; ++p) f = std::max(f, s.pipe[p]);
  s.blk->finish_cycles = f;
}

// An access of `kind` to UB bytes [begin, end) inside the range of an enabled exception register that
// catches that kind: the device raises an AI Core exception (CheckLocalMemoryIA).
inline void ia_check(KState& s, int kind, std::uint32_t begin, std::uint32_t end) {
  if (end <= begin) return;
  static const char* const kKinds[] = {"scalar read", "scalar write", "vector read", "vector write", "MTE read",
                                       "MTE write"};
  const std::uint32_t first = begin / 32, last = (end - 1) / 32;
  for (int r = 0; r < 4; ++r) {
    if (((s.ia_enabled >> r) & 1u) == 0 || ((s.ia_kinds[r] >> kind) & 1u) == 0) continue;
    if (last > s.ia_start[r] && first <= s.ia_end[r]) {
      violation("CheckLocalMemoryIA", std::string(kKinds[kind]) + " of UB bytes [" + std::to_string(begin) + ", " +
                std::to_string(end) + ") inside the range (" + std::to_string(s.ia_start[r]) + ", " +
                std::to_string(s.ia_end[r]) + "] (32-byte units) that exception register " + std::to_string(r) +
                " checks: the device raises an AI Core exception", nullptr, 0);
    }
  }
}

// Schedule one instruction on `pipe` taking `cost` cycles, reading `src` UB spans and writing `dst`
// UB spans (either may be empty). Returns the completion time.
inline double schedule(PipeId pipe, double cost, const Span* src, int nsrc, const Span* dst, int ndst) {
  KState& s = state();
  if (s.ia_enabled != 0) {
    const bool vector = pipe == PIPE_ID_V;
    for (int i = 0; i < nsrc; ++i) ia_check(s, vector ? IA_VECTOR_READ : IA_MTE_READ, src[i].begin, src[i].end);
    for (int i = 0; i < ndst; ++i) ia_check(s, vector ? IA_VECTOR_WRITE : IA_MTE_WRITE, dst[i].begin, dst[i].end);
  }
  s.issue += kIssueCycles;
  double start = std::max(s.issue, s.pipe[pipe]);
  for (int i = 0; i < nsrc; ++i) {
    for (std::uint32_t b = src[i].begin / 32; b < (src[i].end + 31) / 32 && b < kUbBlocks; ++b) start = std::max(start, s.ub_ready[b]);
  }
  for (int i = 0; i < ndst; ++i) {
    for (std::uint32_t b = dst[i].begin / 32; b < (dst[i].end + 31) / 32 && b < kUbBlocks; ++b) {
      start = std::max(start, std::max(s.ub_ready[b], s.ub_used[b]));
    }
  }
  const double end = start + cost;
  for (int i = 0; i < nsrc; ++i) {
    for (std::uint32_t b = src[i].begin / 32; b < (src[i].end + 31) / 32 && b < kUbBlocks; ++b) s.ub_used[b] = std::max(s.ub_used[b], end);
  }
  for (int i = 0; i < ndst; ++i) {
    for (std::uint32_t b = dst[i].begin / 32; b < (dst[i].end + 31) / 32 && b < kUbBlocks; ++b) s.ub_ready[b] = end;
  }
  s.pipe[pipe] = end;
  s.blk->pipe_cycles[pipe] += cost;
  publish(s);
  return end;
}

// AllocTensor of a UB queue buffer: on hardware the queue's producer pipe waits for the event the
// buffer's FreeTensor set, i.e. until every instruction that used the buffer has finished. Here the
// producer pipe's clock moves to the completion of the buffer's last reader or writer, so with one
// buffer per queue copy-in, compute and copy-out of consecutive tiles serialise and with two they
// overlap.
inline void wait_buffer_free(PipeId producer, std::uint32_t begin, std::uint32_t end) {
  KState& s = state();
  double t = s.pipe[producer];
  for (std::uint32_t b = begin / 32; b < (end + 31) / 32 && b < kUbBlocks; ++b) t = std::max(t, std::max(s.ub_ready[b], s.ub_used[b]));
  s.pipe[producer] = t;
  publish(s);
}

// Scalar access to UB bytes: stalls the issue clock until the data is ready (read) or free (write).
inline void scalar_ub_access(std::uint32_t byte, bool write) {
  KState& s = state();
  if (s.ia_enabled != 0) ia_check(s, write ? IA_SCALAR_WRITE : IA_SCALAR_READ, byte, byte + 1);
  const std::uint32_t b = byte / 32;
  double t = s.issue;
  if (b < kUbBlocks) t = std::max(t, write ? std::max(s.ub_ready[b], s.ub_used[b]) : s.ub_ready[b]);
  t += kScalarUbCycles;
  s.issue = t;
  if (b < kUbBlocks) {
    if (write) s.ub_ready[b] = t; else s.ub_used[b] = std::max(s.ub_used[b], t);
  }
  s.pipe[PIPE_ID_S] = std::max(s.pipe[PIPE_ID_S], t);
  s.blk->pipe_cycles[PIPE_ID_S] += kScalarUbCycles;
  publish(s);
}

inline void scalar_gm_access(std::size_t bytes, bool write) {
  KState& s = state();
  // A scalar GM read waits for outstanding GM writes of this block (MTE3) to land.
  double t = s.issue;
  if (!write) t = std::max(t, s.pipe[PIPE_ID_MTE3]);
  t += kScalarGmCycles;
  s.issue = t;
  s.pipe[PIPE_ID_S] = std::max(s.pipe[PIPE_ID_S], t);
  s.blk->pipe_cycles[PIPE_ID_S] += kScalarGmCycles;
  if (write) s.blk->gm_write_bytes += bytes; else s.blk->gm_read_bytes += bytes;
  publish(s);
}

// Basic blocks of the kernel's own scalar code: the scalar unit issues them in program order. -1 takes
// back the block costed just before (nothing ran in between).
inline void scalar_block(int blocks) {
  KState& s = state();
  s.issue += kScalarBlockCycles * blocks;
  s.blk->scalar_blocks += static_cast<std::uint64_t>(static_cast<std::int64_t>(blocks));
  publish(s);
}

// A scalar load or store of the kernel's own memory (stack, local arrays, globals).
inline void scalar_local_access() {
  KState& s = state();
  s.issue += kScalarLocalCycles;
  s.pipe[PIPE_ID_S] = std::max(s.pipe[PIPE_ID_S], s.issue);
  s.blk->pipe_cycles[PIPE_ID_S] += kScalarLocalCycles;
  publish(s);
}

// Formatting helper for violation messages without <sstream>.
inline std::string num(long long v) { return std::to_string(v); }

}  // namespace kern
}  // namespace npukb
