// tools/cpudebug/include/stub_def.h -- CPU孪生调试 (CPU-twin debugging), host side: GmAlloc / GmFree
// (GM for a kernel run on the CPU) and SetKernelMode. Implemented by runtime/cpu_twin.cpp, which a CPU-twin
// program links (docs/simulator.md, "CPU-twin debugging"). Clean-room part of ascendc-sim.
#pragma once
#include <cstddef>

namespace AscendC {

// The kernel's core type for ICPU_RUN_KF: MIX (the default), AIC only or AIV only.
enum class KernelMode {
  MIX_MODE = 0,
  AIC_MODE,
  AIV_MODE
};

// GM for the kernel: `size` bytes, 512-byte aligned, filled with the poison byte (0xA5) and registered
// as one GM tensor, so the kernel's accesses are bounds-checked as in a launch.
void* GmAlloc(size_t size);
// Releases GmAlloc's memory; a pointer GmAlloc did not return is reported and the program exits.
void GmFree(void* ptr);
void SetKernelMode(KernelMode mode);

}  // namespace AscendC

// The pages' examples name the mode unqualified (AscendC::SetKernelMode(KernelMode::AIV_MODE)).
using AscendC::KernelMode;
