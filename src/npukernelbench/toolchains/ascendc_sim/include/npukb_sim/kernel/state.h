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
  // Atomic mode for UB->GM copies: 0 none, 1 add, 2 max, 3 min; dtype size/kind kept as a tag.
  int atomic_op = 0;
  int atomic_kind = 0;  // see atomic.h
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
  // TPipe bookkeeping: one live TPipe per block.
  const void* live_pipe = nullptr;
};

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

// Schedule one instruction on `pipe` taking `cost` cycles, reading `src` UB spans and writing `dst`
// UB spans (either may be empty). Returns the completion time.
inline double schedule(PipeId pipe, double cost, const Span* src, int nsrc, const Span* dst, int ndst) {
  KState& s = state();
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

// Formatting helper for violation messages without <sstream>.
inline std::string num(long long v) { return std::to_string(v); }

}  // namespace kern
}  // namespace npukb
