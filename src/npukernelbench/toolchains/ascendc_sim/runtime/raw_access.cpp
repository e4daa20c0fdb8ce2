// raw_access.cpp -- costing the kernel's own memory accesses and scalar code, and the guarded launcher
// state. Part of the ascendc-sim clean-room simulator (docs/cost-model.md "Raw accesses", "Scalar
// code", docs/security.md).
//
// The kernel TU is compiled with three kinds of compiler instrumentation (compiler.py):
//  * every load and store becomes a call of __asan_{load,store}{1,2,4,8,16,N}_noabort(addr[, size]);
//  * every basic block starts with a call of __sanitizer_cov_trace_pc();
//  * every function defined in the simulator's headers (not the candidate's files, not the C++
//    library) calls __cyg_profile_func_enter/exit, also where it was inlined.
// While simulator code runs (depth > 0) accesses and blocks are the simulator's own and cost nothing
// here (the API they implement has its own cost). Otherwise they are the kernel's own code: an access
// into GM costs a scalar GM access, into on-chip memory a scalar UB access, into the kernel's own
// memory (its stack, local arrays, globals) a scalar local access (npukb_kernel_raw_access, defined by
// the kernel-side headers); a basic block costs the scalar unit's issue of it (npukb_kernel_scalar_block).
// The launcher finds both in the candidate's shared object when it loads it (g_guard's hooks).
// A store into the simulator's guarded state is a violation; a raw GM access just outside a tensor is
// reported as the GM violation it is.
//
// This file is compiled without instrumentation.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "guarded_state.h"
#include "npukb_sim/runtime.h"

namespace npukb {
namespace rt {

Guarded g_guard;

namespace {
constexpr std::uintptr_t kGuardMargin = 4096;   // GM accesses this close to a tensor are checked

[[noreturn]] void out_of_memory(const char* what) {
  std::fprintf(stderr, "npukb: cannot map the simulator's private state (%s)\n", what);
  std::fflush(stderr);
  _exit(4);
}
}  // namespace

void create_private_state(int blocks, int gm_ranges) {
  const std::size_t block_bytes = sizeof(BlockState) * static_cast<std::size_t>(blocks);
  const std::size_t range_offset = (block_bytes + 63) / 64 * 64;
  const std::size_t total = range_offset + sizeof(GmRange) * static_cast<std::size_t>(gm_ranges > 0 ? gm_ranges : 1);
  void* map = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) out_of_memory("mmap");
  auto* base = static_cast<unsigned char*>(map);
  g_guard.blocks = reinterpret_cast<BlockState*>(base);
  for (int b = 0; b < blocks; ++b) new (&g_guard.blocks[b]) BlockState();
  g_guard.block_count = blocks;
  g_guard.gm = reinterpret_cast<GmRange*>(base + range_offset);
  g_guard.gm_capacity = gm_ranges;
  g_guard.gm_count = 0;
  g_guard.private_lo = reinterpret_cast<std::uintptr_t>(base);
  g_guard.private_hi = g_guard.private_lo + total;
}

void set_gm_ranges(const GmRange* ranges, int count) {
  if (count > g_guard.gm_capacity) out_of_memory("too many GM ranges");
  std::copy(ranges, ranges + count, g_guard.gm);
  g_guard.gm_count = count;
  g_guard.gm_lo = count ? ranges[0].start - kGuardMargin : 0;
  g_guard.gm_hi = 0;
  for (int i = 0; i < count; ++i) g_guard.gm_hi = std::max(g_guard.gm_hi, ranges[i].start + ranges[i].size + kGuardMargin);
}

int find_gm_range(std::uintptr_t addr, std::size_t bytes, bool write, int* near) {
  *near = -1;
  const GmRange* first = g_guard.gm;
  const GmRange* last = g_guard.gm + g_guard.gm_count;
  const GmRange* it = std::upper_bound(first, last, addr, [](std::uintptr_t a, const GmRange& r) { return a < r.start; });
  if (it != first) {
    const GmRange& r = *(it - 1);
    const std::uintptr_t off = addr - r.start, limit = gm_limit(r.size, write);
    if (off <= limit && bytes <= limit - off) return static_cast<int>(it - 1 - first);
    if (off < r.size + kGuardMargin) *near = static_cast<int>(it - 1 - first);
  }
  if (*near < 0 && it != last && it->start - addr < kGuardMargin) *near = static_cast<int>(it - first);
  return -1;
}

}  // namespace rt
}  // namespace npukb

namespace {
using npukb::rt::g_guard;

[[noreturn]] void wrote_guarded_state(std::uintptr_t addr, std::size_t bytes) {
  const bool in_blocks = addr >= g_guard.private_lo && addr < g_guard.private_lo + sizeof(npukb::BlockState) *
                                                                 static_cast<std::size_t>(g_guard.block_count);
  npukb::violation("raw pointer store",
                   "the kernel wrote " + std::to_string(bytes) + " bytes into the simulator's own state (" +
                       (in_blocks ? "a block's cost-model clocks and counters" : "the launcher's bookkeeping") +
                       "): kernels may write GM tensors, on-chip buffers and their own variables only",
                   nullptr, 0);
}

inline bool in_onchip(const std::uint8_t* base, std::size_t size, std::uintptr_t a, std::uint64_t* offset) {
  const std::uintptr_t off = a - reinterpret_cast<std::uintptr_t>(base);
  if (base == nullptr || off >= size) return false;
  *offset = off;
  return true;
}

// The kernel-side cost functions are simulator code: their own blocks and accesses (they are compiled
// in the kernel TU, instrumented) must not be costed again, as the kernel's.
void charge_access(npukb::rt::RawAccessFn cost, int space, std::uint64_t offset, std::size_t bytes, bool write) {
  ++g_guard.sim_depth;
  cost(space, offset, bytes, write ? 1 : 0);
  --g_guard.sim_depth;
}

void on_access(std::uintptr_t a, std::size_t bytes, bool write) {
  if (g_guard.sim_depth > 0) return;
  const int b = g_guard.running_block.load(std::memory_order_relaxed);
  const npukb::rt::RawAccessFn cost = g_guard.kernel_raw_access;
  if (b < 0 || cost == nullptr) return;
  const npukb::BlockState& st = g_guard.blocks[b];
  std::uint64_t off = 0;
  if (in_onchip(st.ub, npukb::kUbBytes, a, &off)) {
    charge_access(cost, npukb::RAW_UB, off, bytes, write);
    return;
  }
  if (in_onchip(st.l1, npukb::kL1Bytes, a, &off) || in_onchip(st.l0a, npukb::kL0aBytes, a, &off) ||
      in_onchip(st.l0b, npukb::kL0bBytes, a, &off) || in_onchip(st.l0c, npukb::kL0cBytes, a, &off) ||
      in_onchip(st.bt, npukb::kBiasTableBytes, a, &off) || in_onchip(st.fb, npukb::kFixBufBytes, a, &off)) {
    charge_access(cost, npukb::RAW_ONCHIP, off, bytes, write);
    return;
  }
  if (a >= g_guard.gm_lo && a < g_guard.gm_hi) {
    int near = -1;
    if (npukb::rt::find_gm_range(a, bytes, write, &near) >= 0) {
      charge_access(cost, npukb::RAW_GM, 0, bytes, write);
      return;
    }
    if (near >= 0) npukb::check_gm(reinterpret_cast<const void*>(a), bytes, write, "raw pointer access", "", 0);
  }
  if (write) {
    const std::uintptr_t guard = reinterpret_cast<std::uintptr_t>(&g_guard);
    if ((a >= g_guard.private_lo && a < g_guard.private_hi) || (a + bytes > guard && a < guard + sizeof(g_guard))) {
      wrote_guarded_state(a, bytes);
    }
  }
  // The kernel's own memory: its stack (local variables and arrays), its globals, anything else.
  charge_access(cost, npukb::RAW_LOCAL, 0, bytes, write);
}

// The memory functions the compiler calls for the kernel TU (block copies of struct assignments and
// array initialisers, the builtins behind std::copy or std::fill): the build renames them in the kernel
// object (memcpy -> npukb_raw_memcpy, builder.py), since the instrumentation does not look into them.
// The kernel's own copies cost their bytes as raw accesses (and are bounds-checked like them).
void raw_range(const void* p, std::size_t n, bool write) {
  if (n != 0) on_access(reinterpret_cast<std::uintptr_t>(p), n, write);
}
}  // namespace

// The C library's memory functions with a size known only at run time, as the kernel TU calls them
// (npukb_sim/kernel/device_libc.h). The build's device-symbol check rejects every call the kernel's own
// code makes (there is no C library on the AI core); the simulator's own code calls them here.
extern "C" {
void* npukb_libc_memcpy(void* d, const void* s, std::size_t n) noexcept { return std::memcpy(d, s, n); }
void* npukb_libc_memmove(void* d, const void* s, std::size_t n) noexcept { return std::memmove(d, s, n); }
void* npukb_libc_memset(void* d, int c, std::size_t n) noexcept { return std::memset(d, c, n); }
int npukb_libc_memcmp(const void* a, const void* b, std::size_t n) noexcept { return std::memcmp(a, b, n); }
void* npukb_libc_mempcpy(void* d, const void* s, std::size_t n) noexcept {
  return static_cast<unsigned char*>(std::memcpy(d, s, n)) + n;
}
void npukb_libc_bcopy(const void* s, void* d, std::size_t n) noexcept { std::memmove(d, s, n); }
void npukb_libc_bzero(void* d, std::size_t n) noexcept { std::memset(d, 0, n); }
}

extern "C" {
void* npukb_raw_memcpy(void* d, const void* s, std::size_t n) {
  raw_range(s, n, false);
  raw_range(d, n, true);
  return std::memcpy(d, s, n);
}
void* npukb_raw_memmove(void* d, const void* s, std::size_t n) {
  raw_range(s, n, false);
  raw_range(d, n, true);
  return std::memmove(d, s, n);
}
void* npukb_raw_memset(void* d, int c, std::size_t n) {
  raw_range(d, n, true);
  return std::memset(d, c, n);
}
void* npukb_raw_mempcpy(void* d, const void* s, std::size_t n) {
  return static_cast<unsigned char*>(npukb_raw_memcpy(d, s, n)) + n;
}
int npukb_raw_memcmp(const void* a, const void* b, std::size_t n) {
  raw_range(a, n, false);
  raw_range(b, n, false);
  return std::memcmp(a, b, n);
}
void npukb_raw_bcopy(const void* s, void* d, std::size_t n) { npukb_raw_memmove(d, s, n); }
void npukb_raw_bzero(void* d, std::size_t n) { npukb_raw_memset(d, 0, n); }
}

#define NPUKB_ACCESS_HOOKS(n)                                                                          \
  void __asan_load##n##_noabort(std::uintptr_t a) { on_access(a, n, false); }                          \
  void __asan_store##n##_noabort(std::uintptr_t a) { on_access(a, n, true); }                          \
  void __asan_load##n(std::uintptr_t a) { on_access(a, n, false); }                                    \
  void __asan_store##n(std::uintptr_t a) { on_access(a, n, true); }

extern "C" {
NPUKB_ACCESS_HOOKS(1)
NPUKB_ACCESS_HOOKS(2)
NPUKB_ACCESS_HOOKS(4)
NPUKB_ACCESS_HOOKS(8)
NPUKB_ACCESS_HOOKS(16)
void __asan_loadN_noabort(std::uintptr_t a, std::size_t n) { on_access(a, n, false); }
void __asan_storeN_noabort(std::uintptr_t a, std::size_t n) { on_access(a, n, true); }
void __asan_loadN(std::uintptr_t a, std::size_t n) { on_access(a, n, false); }
void __asan_storeN(std::uintptr_t a, std::size_t n) { on_access(a, n, true); }
void __asan_handle_no_return() {}
// Emitted around the dynamic initialisers of namespace-scope objects (init-order checking, which
// the costing does not do): a kernel file with a global constructed at load time links.
void __asan_before_dynamic_init(const char*) {}
void __asan_after_dynamic_init() {}
// A basic block of kernel-TU code: the kernel's own when no simulator code runs.
void __sanitizer_cov_trace_pc() {
  g_guard.last_block = 0;
  const npukb::rt::ScalarBlockFn scalar_block = g_guard.kernel_scalar_block;
  if (g_guard.sim_depth > 0 || scalar_block == nullptr) return;
  if (g_guard.running_block.load(std::memory_order_relaxed) < 0) return;
  ++g_guard.sim_depth;
  scalar_block(1);
  --g_guard.sim_depth;
  g_guard.last_block = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
}
// A simulator function that was not inlined starts with a basic block of its own before it reports
// its entry: that block, costed as the kernel's a moment ago, was the simulator's. It lies between the
// function's start and the entry call, a few instructions apart (an inlined function's entry call lies
// in its caller, far from its out-of-line copy).
void __cyg_profile_func_enter(void* fn, void*) {
  const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(fn);
  const std::uintptr_t entry_call = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  const std::uintptr_t block = g_guard.last_block;
  g_guard.last_block = 0;
  if (g_guard.sim_depth == 0 && block != 0 && start <= block && block <= entry_call && entry_call - start < 128 &&
      g_guard.kernel_scalar_block != nullptr) {
    ++g_guard.sim_depth;
    g_guard.kernel_scalar_block(-1);
    --g_guard.sim_depth;
  }
  ++g_guard.sim_depth;
}
void __cyg_profile_func_exit(void*, void*) { --g_guard.sim_depth; }
}
