// guarded_state.h -- runtime-internal: the launcher state that raw-access costing and the cost model
// depend on, kept where the kernel cannot change it (docs/security.md). Part of ascendc-sim; shared by
// the launcher's files (launcher_*.cpp) and raw_access.cpp only.
//
// * `g_guard` (one object, not thread-local) holds the running block, the simulator-code depth that
//   exempts the simulator's own accesses from raw-access costing, and where the private mapping is.
// * The private mapping (mmap, one per launch) holds every block's BlockState (clocks, pipe cycles, GM
//   byte counters, the kernel-side API state) and the GM ranges raw accesses are classified by.
// A store the kernel's own (instrumented) code makes into either is a violation.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "npukb_sim/runtime.h"

namespace npukb {
namespace rt {

struct GmRange {
  std::uintptr_t start;
  std::size_t size;
};

// The kernel-side cost hook of a raw access (npukb_kernel_raw_access in the candidate's shared object,
// looked up by the launcher when it loads it; null in a build without one).
using RawAccessFn = void (*)(int space, std::uint64_t offset, std::uint64_t bytes, int write);
// The kernel-side cost hook of a basic block of the kernel's own code (npukb_kernel_scalar_block, found
// the same way).
using ScalarBlockFn = void (*)(int blocks);

struct Guarded {
  RawAccessFn kernel_raw_access = nullptr;
  ScalarBlockFn kernel_scalar_block = nullptr;
  int sim_depth = 0;                  // > 0 while the simulator's own instrumented code runs
  std::uintptr_t last_block = 0;      // where the last basic block costed as the kernel's was (0: none since)
  std::atomic<int> running_block{-1};  // the block running now (cooperative: exactly one)
  BlockState* blocks = nullptr;       // block_count BlockStates in the private mapping
  int block_count = 0;
  GmRange* gm = nullptr;              // sorted by start, in the private mapping
  int gm_count = 0;
  int gm_capacity = 0;
  std::uintptr_t gm_lo = 0, gm_hi = 0;   // hull of the GM ranges, with their guard margins
  std::uintptr_t private_lo = 0, private_hi = 0;
};

extern Guarded g_guard;

// Create the private mapping for `blocks` blocks and up to `gm_ranges` GM ranges (launcher, once).
void create_private_state(int blocks, int gm_ranges);

// Record the GM ranges (sorted by start) for check_gm and raw-access classification.
void set_gm_ranges(const GmRange* ranges, int count);

// Bytes of a GM tensor of `size` bytes an access may touch. A write: up to the end of the tensor's
// last 32-byte block (DMA moves whole 32-byte blocks; expert kernels write a one-element output with
// a 32-byte DataCopy). A read: up to the end of its 512-byte allocation granule (device allocators
// hand out 512-byte multiples, so real kernels read a short bias or scale row as one 512-byte block).
// The bytes past the tensor are the allocation's padding: poisoned, never part of an output, so a
// result that depends on them differs between the two poison seeds of a check.
inline std::size_t gm_limit(std::size_t size, bool write) {
  return write ? (size + 31) / 32 * 32 : (size + 511) / 512 * 512;
}

// Index of the GM range an access of [addr, addr + bytes) may touch (within gm_limit), -1 when none;
// `near` is set to the index of a range the access starts within 4 KiB of (for messages), else -1.
int find_gm_range(std::uintptr_t addr, std::size_t bytes, bool write, int* near);

}  // namespace rt
}  // namespace npukb
