// tikicpulib.h -- the header of a CPU-twin (CPU孪生调试) host program: the kernel APIs plus GmAlloc /
// GmFree / SetKernelMode (stub_def.h) and ICPU_RUN_KF / ICPU_SET_TILING_KEY (kern_fwk.h). The program is
// compiled with the kernel headers' definitions (-D__CCE_AICORE__=220 -DASCENDC_CPU_DEBUG) and linked with
// runtime/cpu_twin.cpp and runtime/cube_engine.cpp (docs/simulator.md). Clean-room part of ascendc-sim.
#pragma once
#include "kernel_operator.h"
#include "tools/cpudebug/include/kern_fwk.h"
#include "tools/cpudebug/include/stub_def.h"
