// npukb_sim/kernel/raw_access.h -- the cost of the kernel's own loads and stores through raw
// pointers, and of its own scalar code (docs/cost-model.md, "Raw accesses", "Scalar code"). Clean-room
// part of ascendc-sim.
//
// The build compiles the kernel TU with memory-access and basic-block instrumentation (compiler.py);
// the runtime (runtime/raw_access.cpp) classifies every access the kernel's own code makes and calls
// npukb_kernel_raw_access, and npukb_kernel_scalar_block for every basic block it runs. An access is
// costed as the scalar unit's GetValue/SetValue on the same memory: one scalar access per 8 bytes (the
// widest scalar load), UB accesses wait for the data (reads) or the buffer (writes) as GetValue/SetValue
// do; an access to the kernel's own memory (stack, local arrays, globals) costs a scalar local access.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/state.h"

// Weak: every TU that includes the kernel headers may define it; the linker keeps one. The simulator's
// own code (this function included) runs exempt from raw-access costing.
extern "C" __attribute__((weak)) void npukb_kernel_raw_access(int space, std::uint64_t offset, std::uint64_t bytes,
                                                              int write) {
  constexpr std::uint64_t kWord = 8;
  const std::uint64_t words = bytes == 0 ? 1 : (bytes + kWord - 1) / kWord;
  npukb::BlockState& b = npukb::block();
  if (space == npukb::RAW_GM) {
    b.raw_gm_accesses += words;
    for (std::uint64_t w = 0; w < words; ++w) {
      const std::uint64_t n = bytes > w * kWord ? (bytes - w * kWord < kWord ? bytes - w * kWord : kWord) : bytes;
      npukb::kern::scalar_gm_access(n, write != 0);
    }
    return;
  }
  if (space == npukb::RAW_LOCAL) {
    b.raw_local_accesses += words;
    for (std::uint64_t w = 0; w < words; ++w) npukb::kern::scalar_local_access();
    return;
  }
  b.raw_ub_accesses += words;
  for (std::uint64_t w = 0; w < words; ++w) {
    // Only UB has readiness tracking; other on-chip buffers cost the plain scalar access.
    const std::uint64_t at = space == npukb::RAW_UB ? offset + w * kWord : npukb::kUbBytes;
    npukb::kern::scalar_ub_access(static_cast<std::uint32_t>(at), write != 0);
  }
}

// One basic block of the kernel's own code ran (the runtime's __sanitizer_cov_trace_pc hook), or (-1) the
// last one was not the kernel's after all.
extern "C" __attribute__((weak)) void npukb_kernel_scalar_block(int blocks) { npukb::kern::scalar_block(blocks); }
