// npukb_sim/kernel/lib_support.h -- what the normalization and quantization library APIs share: the
// temporary-buffer checks (a sharedTmpBuffer below the simulator's minimum, or the UB a framework-
// allocated buffer needs already taken by TPipe), the overlap check of operands the docs forbid to
// share memory, the binary (tree) sum the vector reductions perform, and the cost of a library call
// as the vector instruction sequence it runs. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "npukb_sim/kernel/pipe.h"
#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

// The sum of v[0..n) in the order of the vector reductions: the tail beyond the largest power of two
// is folded onto the head, then the halves are added until one value is left.
inline float tree_sum(const float* v, std::uint32_t n) {
  if (n == 0) return 0.0f;
  std::uint32_t head = 1;
  while (head * 2 <= n) head *= 2;
  std::vector<float> w(v, v + head);
  for (std::uint32_t i = head; i < n; ++i) w[i - head] += v[i];
  for (std::uint32_t len = head / 2; len >= 1; len /= 2) {
    for (std::uint32_t i = 0; i < len; ++i) w[i] += w[i + len];
  }
  return w[0];
}

// A sharedTmpBuffer handed to a library API: allocated, 32-byte aligned and at least `need` bytes (the
// minimum the host's Get*MaxMinTmpSize reports for this shape, or the buffer the tiling was planned for).
inline void check_tmp_buffer(const char* api, const LocalTensor<std::uint8_t>& tmp, std::uint64_t need, const char* why,
                             const char* file, int line) {
  check_local(api, "sharedTmpBuffer", tmp, 0, true, file, line);
  if (static_cast<std::uint64_t>(tmp.GetSize()) < need) {
    npukb::violation(api, "sharedTmpBuffer of " + npukb::kern::num(tmp.GetSize()) + " bytes is smaller than the " +
                     npukb::kern::num(static_cast<long long>(need)) + " bytes " + why, file, line);
  }
}

// The forms without sharedTmpBuffer take their work buffer from the UB that TPipe has not allocated:
// the kernel must leave at least `need` bytes of it free.
inline void check_framework_tmp(const char* api, std::uint64_t need, const char* why, const char* file, int line) {
  const auto* pipe = static_cast<const TPipe*>(npukb::kern::state().live_pipe);
  if (pipe == nullptr) return;
  const std::uint64_t used = pipe->used_bytes(Hardware::UB);
  const std::uint64_t left = used >= npukb::kUbBytes ? 0 : npukb::kUbBytes - used;
  if (left < need) {
    npukb::violation(api, "the temporary buffer this form allocates itself needs " +
                     npukb::kern::num(static_cast<long long>(need)) + " bytes of unallocated UB (" + why +
                     ") but TPipe has allocated " + npukb::kern::num(static_cast<long long>(used)) + " of " +
                     npukb::kern::num(static_cast<long long>(npukb::kUbBytes)) +
                     " bytes (reserve it, or pass a sharedTmpBuffer)", file, line);
  }
}

// Two operands that the API page says must not share memory.
template <typename A, typename B>
inline void check_no_overlap(const char* api, const char* what_a, const LocalTensor<A>& a, std::uint64_t a_bytes,
                             const char* what_b, const LocalTensor<B>& b, std::uint64_t b_bytes, const char* file,
                             int line) {
  const LocalLoc& la = a.loc();
  const LocalLoc& lb = b.loc();
  if (la.base == nullptr || la.base != lb.base || a_bytes == 0 || b_bytes == 0) return;
  if (la.addr < lb.addr + b_bytes && lb.addr < la.addr + a_bytes) {
    npukb::violation(api, std::string(what_a) + " and " + what_b + " overlap (" + hw_name(la.hw) + " bytes [" +
                     npukb::kern::num(la.addr) + ", " + npukb::kern::num(static_cast<long long>(la.addr + a_bytes)) +
                     ") and [" + npukb::kern::num(lb.addr) + ", " +
                     npukb::kern::num(static_cast<long long>(lb.addr + b_bytes)) + ")); the API does not allow it",
                     file, line);
  }
}

// The cost of a library call: `instructions` vector instructions per pass (each with its start-up),
// `passes` passes, and `cycles_per_repeat` (the sum over the instructions) for every 256-byte repeat of
// the fp32 working data. Like every count-form API, the call leaves the mask register reset (all
// lanes, normal mode).
inline void lib_cost(std::uint32_t passes, std::uint32_t instructions, double cycles_per_repeat,
                     std::uint64_t fp32_elems, const npukb::kern::Span* src, int nsrc, const npukb::kern::Span* dst,
                     int ndst) {
  count_plan(fp32_elems, 64);
  const double repeats = static_cast<double>((fp32_elems * 4 + 255) / 256);
  const double cycles = static_cast<double>(passes == 0 ? 1 : passes) * instructions * npukb::kern::kVecStartCycles +
                        cycles_per_repeat * repeats;
  npukb::kern::schedule(npukb::PIPE_ID_V, cycles, src, nsrc, dst, ndst);
}

constexpr double kLibSimple = static_cast<double>(npukb::kern::VecCost::Simple);
constexpr double kLibReduce = static_cast<double>(npukb::kern::VecCost::Reduce);
constexpr double kLibTrans = static_cast<double>(npukb::kern::VecCost::Transcend);

inline std::uint32_t passes_of(std::uint32_t rows, std::uint32_t per_pass) {
  return per_pass == 0 ? rows : (rows + per_pass - 1) / per_pass;
}

}  // namespace sim
}  // namespace AscendC
