// npukb_sim/kernel/debug.h -- debugging APIs: DumpTensor, printf / PRINTF (to the launcher's log),
// TRACE_START / TRACE_STOP (no-ops). Clean-room part of ascendc-sim.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

#include "npukb_sim/kernel/tensor.h"

namespace AscendC {

inline void DumpTensorText(const std::string& s) { npukb::kern::state(); npukb::kernel_log(s); }
template <typename T>
inline void DumpTensor(const LocalTensor<T>& t, std::uint32_t desc, std::uint32_t dumpSize) {
  std::string s = "DumpTensor desc=" + std::to_string(desc) + ":";
  for (std::uint32_t i = 0; i < dumpSize && i < t.GetSize(); ++i) s += " " + std::to_string(static_cast<double>(static_cast<float>(t.ptr()[i])));
  DumpTensorText(s);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& t, std::uint32_t desc, std::uint32_t dumpSize) {
  std::string s = "DumpTensor desc=" + std::to_string(desc) + ":";
  for (std::uint32_t i = 0; i < dumpSize; ++i) s += " " + std::to_string(static_cast<double>(static_cast<float>(t.GetPhyAddr()[i])));
  DumpTensorText(s);
}

}  // namespace AscendC

// printf in kernels (AscendC::printf / PRINTF) goes to the launcher's log.
inline int npukb_kernel_printf(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  npukb::kernel_log(buf);
  return n;
}
namespace AscendC { using ::npukb_kernel_printf; }
namespace std { using ::npukb_kernel_printf; }  // kernels may write std::printf
#define printf npukb_kernel_printf
#define PRINTF npukb_kernel_printf

#ifndef TRACE_START
#define TRACE_START(id)
#define TRACE_STOP(id)
#endif
