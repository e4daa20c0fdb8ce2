// tools/cpudebug/include/kern_fwk.h -- CPU孪生调试 (CPU-twin debugging): ICPU_RUN_KF(func, numBlocks, args...)
// runs a kernel function on the CPU, block after block, with the simulator's kernel state (UB, L1, L0,
// GetBlockIdx, the cost model), and ICPU_SET_TILING_KEY(key) sets the key TILING_KEY_IS compares.
// Implemented by runtime/cpu_twin.cpp. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <functional>

namespace npukb {
namespace cpu_twin {
// Runs `body` once per block (numBlocks of them) on the core type SetKernelMode chose; prints the
// estimated cycles of the slowest block on stderr ("ICPU_RUN_KF <name>: ...").
void run(const char* name, std::uint32_t numBlocks, const std::function<void()>& body);
void set_tiling_key(std::uint64_t key);

template <class... Params, class... Args>
inline void run_kf(const char* name, void (*func)(Params...), std::uint32_t numBlocks, Args... args) {
  static_assert(sizeof...(Args) <= 32, "ICPU_RUN_KF: at most 32 kernel arguments");
  static_assert(sizeof...(Args) == sizeof...(Params), "ICPU_RUN_KF: one argument per kernel parameter");
  run(name, numBlocks, [&]() { func(static_cast<Params>(args)...); });
}
}  // namespace cpu_twin
}  // namespace npukb

#define ICPU_RUN_KF(func, numBlocks, ...) ::npukb::cpu_twin::run_kf(#func, func, numBlocks, ##__VA_ARGS__)
#define ICPU_SET_TILING_KEY(tilingKey) ::npukb::cpu_twin::set_tiling_key(static_cast<uint64_t>(tilingKey))
