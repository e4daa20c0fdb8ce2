// npukb_sim/kernel/debug.h -- debugging APIs: printf / PRINTF, DumpTensor, DumpAccChkPoint, PrintTimeStamp
// (to the launcher's log), assert / ascendc_assert, Trap, MetricsProfStart / MetricsProfStop, and the
// ASCENDC_DUMP switch that turns the printing ones off. Clean-room part of ascendc-sim.
//
// Formatting follows the device, not C's varargs: every argument is converted by its type, so `%d`
// prints an int64_t, `%f` a half or bfloat16_t, and `%x` prints 64 bits (a negative int32_t is
// sign-extended). One call prints at most 30 KB; a longer text is not printed, as on the device.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "npukb_sim/kernel/tensor.h"

namespace AscendC {
namespace sim {
namespace dbg {

constexpr std::size_t kPrintLimit = 30 * 1024;

// One printf argument, converted as the device converts it.
struct Arg {
  enum Kind : std::uint8_t { Int, Uint, Float, Str, Ptr } kind = Int;
  long long i = 0;
  unsigned long long u = 0;
  double f = 0.0;
  const char* s = nullptr;
  const void* p = nullptr;
};

template <typename T>
inline Arg arg(const T& v) {
  Arg a;
  using U = std::decay_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    a.kind = Arg::Int; a.i = v ? 1 : 0; a.u = static_cast<unsigned long long>(a.i); a.f = static_cast<double>(a.i);
  } else if constexpr (std::is_integral_v<U> || std::is_enum_v<U>) {
    if constexpr (std::is_signed_v<U> || std::is_enum_v<U>) {
      a.kind = Arg::Int; a.i = static_cast<long long>(v); a.u = static_cast<unsigned long long>(a.i);
    } else {
      a.kind = Arg::Uint; a.u = static_cast<unsigned long long>(v); a.i = static_cast<long long>(a.u);
    }
    a.f = static_cast<double>(a.i);
  } else if constexpr (std::is_floating_point_v<U> || std::is_same_v<U, half> || std::is_same_v<U, bfloat16_t>) {
    a.kind = Arg::Float; a.f = static_cast<double>(static_cast<float>(v));
    a.i = static_cast<long long>(a.f); a.u = static_cast<unsigned long long>(a.i);
  } else if constexpr (std::is_convertible_v<U, const char*>) {
    a.kind = Arg::Str; a.s = v; a.p = v;
  } else if constexpr (std::is_pointer_v<U>) {
    a.kind = Arg::Ptr; a.p = reinterpret_cast<const void*>(v);
    a.u = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(v)); a.i = static_cast<long long>(a.u);
  } else {
    static_assert(std::is_arithmetic_v<U>, "printf: arguments are numbers, bool, strings or pointers");
  }
  return a;
}

// The text of `fmt` with `args`: each conversion is printed from its converted argument with the length
// modifier that fits it; a conversion without an argument is printed as written.
inline std::string format(const char* fmt, const Arg* args, int nargs) {
  std::string out;
  int next = 0;
  char buf[512];
  for (const char* c = fmt; c != nullptr && *c != '\0'; ++c) {
    if (*c != '%') {
      out += *c;
      continue;
    }
    if (c[1] == '%') {
      out += '%';
      ++c;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    const char* start = c++;
    std::string spec = "%";
    while (*c != '\0' && std::string("-+ #0").find(*c) != std::string::npos) spec += *c++;
    while (*c >= '0' && *c <= '9') spec += *c++;
    if (*c == '.') {
      spec += *c++;
      while (*c >= '0' && *c <= '9') spec += *c++;
    }
    while (*c != '\0' && std::string("hlLqjzt").find(*c) != std::string::npos) ++c;   // the device decides
    const char conv = *c;
    if (conv == '\0') {
      out.append(start);
      break;
    }
    if (std::string("diuxXofFeEgGaAcsp").find(conv) == std::string::npos || next >= nargs) {
      out.append(start, static_cast<std::size_t>(c - start + 1));
      continue;
    }
    const Arg& a = args[next++];
    int n = 0;
    switch (conv) {
      case 'd': case 'i': n = __builtin_snprintf(buf, sizeof buf, (spec + "lld").c_str(), a.i); break;
      case 'u': n = __builtin_snprintf(buf, sizeof buf, (spec + "llu").c_str(), a.u); break;
      case 'x': case 'X': case 'o':
        n = __builtin_snprintf(buf, sizeof buf, (spec + "ll" + conv).c_str(), a.u);
        break;
      case 'c': n = __builtin_snprintf(buf, sizeof buf, (spec + "c").c_str(), static_cast<int>(a.i)); break;
      case 's': n = __builtin_snprintf(buf, sizeof buf, (spec + "s").c_str(), a.s != nullptr ? a.s : "(null)"); break;
      case 'p': n = __builtin_snprintf(buf, sizeof buf, (spec + "p").c_str(), a.p); break;
      default: n = __builtin_snprintf(buf, sizeof buf, (spec + conv).c_str(), a.f); break;
    }
    if (n > 0) out.append(buf, static_cast<std::size_t>(n) < sizeof buf ? static_cast<std::size_t>(n) : sizeof buf - 1);
  }
  return out;
}

template <class... Args>
inline std::string format_args(const char* fmt, Args&&... args) {
  const Arg list[sizeof...(Args) + 1] = {arg(args)..., Arg{}};
  return format(fmt, list, static_cast<int>(sizeof...(Args)));
}

// Print one text to the log, unless it exceeds the device's per-call limit.
inline void emit(const std::string& text) {
  if (text.size() <= kPrintLimit) npukb::kernel_log(text);
}

template <typename T>
inline const char* type_name() {
  if constexpr (std::is_same_v<T, half>) return "float16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  else if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
  else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  else return "unknown";
}

using sim::value_text;

// "[v, v, ...]" of `n` elements at `p`; with a shape, rows of its last dim and "-" where the dump ends
// before the shape does (the device's rule for a shape larger than dumpSize).
template <typename T>
inline std::string values(const std::uint8_t* p, std::uint32_t n, const ShapeInfo* shape) {
  std::uint64_t shown = n, row = 0;
  if (shape != nullptr && shape->shapeDim > 0) {
    shown = static_cast<std::uint64_t>(GetShapeSize(*shape));
    row = shape->shape[shape->shapeDim - 1];
  }
  std::string s = "[";
  for (std::uint64_t i = 0; i < shown; ++i) {
    if (i > 0) s += (row > 0 && i % row == 0) ? ",\n " : ", ";
    if (i < n) {
      T v;
      __builtin_memcpy(&v, p + i * sizeof(T), sizeof(T));
      s += value_text(v);
    } else {
      s += "-";
    }
  }
  return s + "]";
}

inline const char* position_text(Hardware hw) {
  switch (hw) {
    case Hardware::UB: return "UB";
    case Hardware::L1: return "L1";
    case Hardware::L0C: return "L0C";
    default: return nullptr;   // L0A, L0B, BT, FB: DumpTensor does not print them
  }
}

// DumpTensor / DumpAccChkPoint of a LocalTensor from element `offset` on.
template <typename T>
inline void dump_local(const char* api, const char* tag, std::uint32_t id, const LocalTensor<T>& t, std::uint32_t offset,
                       std::uint32_t n, const ShapeInfo* shape) {
  const sim::LocalLoc& l = t.loc();
  const char* pos = position_text(l.hw);
  if (l.base == nullptr) npukb::violation(api, "the LocalTensor was never allocated (AllocTensor/Get missing)", nullptr, 0);
  if (pos == nullptr) {
    npukb::warning(api, "prints tensors in UB, L1, L0C or GM only: nothing printed", nullptr, 0);
    return;
  }
  const std::uint64_t begin = l.addr + static_cast<std::uint64_t>(offset) * sizeof(T);
  if (offset != 0 && begin % 32 != 0) {
    npukb::violation(api, "the tensor offset by countOff " + npukb::kern::num(offset) + " starts at byte " +
                     npukb::kern::num(static_cast<long long>(begin)) + ", not 32-byte aligned", nullptr, 0);
  }
  if (begin + static_cast<std::uint64_t>(n) * sizeof(T) > l.region_bytes) {
    npukb::violation(api, "dumping " + npukb::kern::num(n) + " elements runs past the end of " + pos, nullptr, 0);
  }
  if (static_cast<std::uint64_t>(n) * sizeof(T) > kPrintLimit) return;   // over the device's print limit
  char head[256];
  __builtin_snprintf(head, sizeof head, "%s: %s=%u, addr=%llu, data_type=%s, position=%s, dump_size=%u\n", api, tag, id,
                     static_cast<unsigned long long>(begin), type_name<T>(), pos, n);
  emit(head + values<T>(l.base + begin, n, shape) + "\n");
}

template <typename T>
inline void dump_global(const char* api, const char* tag, std::uint32_t id, const GlobalTensor<T>& t, std::uint32_t offset,
                        std::uint32_t n, const ShapeInfo* shape) {
  const std::uint8_t* p = reinterpret_cast<const std::uint8_t*>(t.GetPhyAddr() + offset);
  t.check_access(p, static_cast<std::size_t>(n) * sizeof(T), false, api, nullptr, 0);
  if (static_cast<std::uint64_t>(n) * sizeof(T) > kPrintLimit) return;
  const void* home = npukb::gm_home(p);
  const unsigned long long addr = home != nullptr ? static_cast<unsigned long long>(p - static_cast<const std::uint8_t*>(home)) : 0;
  char head[256];
  __builtin_snprintf(head, sizeof head, "%s: %s=%u, addr=%llu, data_type=%s, position=GM, dump_size=%u\n", api, tag, id,
                     addr, type_name<T>(), n);
  emit(head + values<T>(p, n, shape) + "\n");
}

[[noreturn]] inline void assert_failed(const char* text, const std::string& message) {
  npukb::violation("assert", std::string("assertion failed: ") + text + (message.empty() ? "" : " -- " + message),
                   nullptr, 0);
}
inline void kernel_assert(const char* text, bool cond) {
  if (!cond) assert_failed(text, "");
}
template <class... Args>
inline void kernel_assert(const char* text, bool cond, const char* fmt, Args&&... args) {
  if (!cond) assert_failed(text, format_args(fmt, static_cast<Args&&>(args)...));
}

}  // namespace dbg
}  // namespace sim
}  // namespace AscendC

// ASCENDC_DUMP 0 (a compile definition or a #define before the include) turns printing and assertions off.
#if defined(ASCENDC_DUMP) && (ASCENDC_DUMP == 0)
#define NPUKB_DUMP_ON 0
#else
#define NPUKB_DUMP_ON 1
#endif

// printf / PRINTF (AscendC::printf in the documentation). The kernel TU also sees the C library's ::printf
// (through the standard headers the simulator needs), which would win a call without arguments after
// `using namespace AscendC;` (a non-template beats a template on a tie), so every spelling -- printf,
// AscendC::printf, std::printf, PRINTF -- is routed here by name.
template <class... Args>
inline void npukb_kernel_printf(__gm__ const char* fmt, Args&&... args) {
  if (NPUKB_DUMP_ON) AscendC::sim::dbg::emit(AscendC::sim::dbg::format_args(fmt, static_cast<Args&&>(args)...));
}
namespace std { using ::npukb_kernel_printf; }
#define printf npukb_kernel_printf
#define PRINTF npukb_kernel_printf

namespace AscendC {

using ::npukb_kernel_printf;

template <typename T>
inline void DumpTensor(const LocalTensor<T>& tensor, std::uint32_t desc, std::uint32_t dumpSize) {
  if (NPUKB_DUMP_ON) sim::dbg::dump_local("DumpTensor", "desc", desc, tensor, 0, dumpSize, nullptr);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& tensor, std::uint32_t desc, std::uint32_t dumpSize) {
  if (NPUKB_DUMP_ON) sim::dbg::dump_global("DumpTensor", "desc", desc, tensor, 0, dumpSize, nullptr);
}
template <typename T>
inline void DumpTensor(const LocalTensor<T>& tensor, std::uint32_t desc, std::uint32_t dumpSize,
                       const ShapeInfo& shapeInfo) {
  if (NPUKB_DUMP_ON) sim::dbg::dump_local("DumpTensor", "desc", desc, tensor, 0, dumpSize, &shapeInfo);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& tensor, std::uint32_t desc, std::uint32_t dumpSize,
                       const ShapeInfo& shapeInfo) {
  if (NPUKB_DUMP_ON) sim::dbg::dump_global("DumpTensor", "desc", desc, tensor, 0, dumpSize, &shapeInfo);
}

template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& tensor, std::uint32_t index, std::uint32_t countOff,
                            std::uint32_t dumpSize) {
  if (NPUKB_DUMP_ON) sim::dbg::dump_local("DumpAccChkPoint", "index", index, tensor, countOff, dumpSize, nullptr);
}
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, std::uint32_t index, std::uint32_t countOff,
                            std::uint32_t dumpSize) {
  if (NPUKB_DUMP_ON) sim::dbg::dump_global("DumpAccChkPoint", "index", index, tensor, countOff, dumpSize, nullptr);
}

// Printed only when the kernel is compiled with ASCENDC_TIME_STAMP_ON (off by default, as documented);
// the time stamp is the block's estimated cycle count (GetSystemCycle).
inline void PrintTimeStamp(std::uint32_t descId) {
#ifdef ASCENDC_TIME_STAMP_ON
  char buf[160];
  __builtin_snprintf(buf, sizeof buf, "descId is %u, rsv is 0, timeStamp is %lld, pcPtr is 0, entry is 0.\n", descId,
                     static_cast<long long>(npukb::kern::state().issue));
  sim::dbg::emit(buf);
#else
  (void)descId;
#endif
}

// Stops the AI Core (NPU mode): the run ends with a violation naming the kernel line.
[[noreturn]] inline void Trap() { npukb::violation("Trap", "the kernel called Trap(): the AI Core stops", nullptr, 0); }

// Markers for the msOpProf profiler: no effect on the run or its estimate.
inline void MetricsProfStart() {}
inline void MetricsProfStop() {}

// CheckLocalMemoryIA: exception register enableBit (0..3) catches the chosen kinds of UB access to the
// 32-byte blocks (startAddr, endAddr]; a caught access ends the run with a violation (the device raises an
// AI Core exception). isEnable false resets the register, as each use must be followed by.
struct CheckLocalMemoryIAParam {
  std::uint64_t enableBit = 0;
  std::uint64_t startAddr = 0;
  std::uint64_t endAddr = 0;
  bool isScalarRead = false;
  bool isScalarWrite = false;
  bool isVectorRead = false;
  bool isVectorWrite = false;
  bool isMteRead = false;
  bool isMteWrite = false;
  bool isEnable = false;
  std::uint64_t reserved = 0;
};

namespace sim {
// An address of CheckLocalMemoryIA in 32-byte units. GetPhyAddr() is a host address here, so the doc's
// idiom (uint32_t)(tensor.GetPhyAddr() / 32) gives this block's UB host address in 32-byte units (its low
// 32 bits): that is mapped back to the UB offset. Other values are UB units, within [0, 65535].
inline std::uint32_t ia_unit(std::uint64_t v, const char* what) {
  const std::uint8_t* ub = npukb::block().ub;
  const std::uint32_t base = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(ub) / 32);
  const std::uint32_t off = static_cast<std::uint32_t>(v) - base;
  if (v > 65535 && v <= 0xffffffffULL && off <= npukb::kern::kUbBlocks) return off;
  if (v > 65535) {
    npukb::violation("CheckLocalMemoryIA", std::string(what) + " " + std::to_string(v) +
                     " is outside [0, 65535] (32-byte units of UB)", nullptr, 0);
  }
  return static_cast<std::uint32_t>(v);
}
}  // namespace sim

inline void CheckLocalMemoryIA(const CheckLocalMemoryIAParam& checkParams) {
  npukb::kern::KState& s = npukb::kern::state();
  if (checkParams.enableBit > 3) {
    npukb::violation("CheckLocalMemoryIA", "enableBit " + std::to_string(checkParams.enableBit) +
                     " is not an exception register (0 to 3)", nullptr, 0);
  }
  const int r = static_cast<int>(checkParams.enableBit);
  if (!checkParams.isEnable) {
    s.ia_enabled = static_cast<std::uint8_t>(s.ia_enabled & ~(1u << r));
    return;
  }
  if ((s.ia_enabled >> r) & 1u) {
    npukb::violation("CheckLocalMemoryIA", "exception register " + std::to_string(r) +
                     " is enabled again without a reset (a call with isEnable false) after its last use", nullptr, 0);
  }
  s.ia_start[r] = sim::ia_unit(checkParams.startAddr, "startAddr");
  s.ia_end[r] = sim::ia_unit(checkParams.endAddr, "endAddr");
  s.ia_kinds[r] = static_cast<std::uint8_t>(
      (checkParams.isScalarRead ? 1u << npukb::kern::IA_SCALAR_READ : 0u) |
      (checkParams.isScalarWrite ? 1u << npukb::kern::IA_SCALAR_WRITE : 0u) |
      (checkParams.isVectorRead ? 1u << npukb::kern::IA_VECTOR_READ : 0u) |
      (checkParams.isVectorWrite ? 1u << npukb::kern::IA_VECTOR_WRITE : 0u) |
      (checkParams.isMteRead ? 1u << npukb::kern::IA_MTE_READ : 0u) |
      (checkParams.isMteWrite ? 1u << npukb::kern::IA_MTE_WRITE : 0u));
  s.ia_enabled = static_cast<std::uint8_t>(s.ia_enabled | (1u << r));
}

}  // namespace AscendC

// assert(expr[, fmt, args...]) and ascendc_assert: a false condition prints and stops the kernel (here a
// violation naming the line); ASCENDC_DUMP 0 or NDEBUG turns them off. They replace <cassert>'s assert
// (a kernel that includes <cassert> afterwards gets the C library's, which aborts the process).
#undef assert
#if NPUKB_DUMP_ON && !defined(NDEBUG)
#define assert(...) ::AscendC::sim::dbg::kernel_assert(#__VA_ARGS__, __VA_ARGS__)
#define ascendc_assert(...) ::AscendC::sim::dbg::kernel_assert(#__VA_ARGS__, __VA_ARGS__)
#else
#define assert(...) ((void)0)
#define ascendc_assert(...) ((void)0)
#endif

// TRACE_START / TRACE_STOP([pipe, ]apid): CAModel trace points; the arguments are checked (compiled, not
// run) and nothing else happens here.
#ifndef TRACE_START
#define TRACE_START(...) do { (void)sizeof((__VA_ARGS__, 0)); } while (0)
#define TRACE_STOP(...) do { (void)sizeof((__VA_ARGS__, 0)); } while (0)
#endif
