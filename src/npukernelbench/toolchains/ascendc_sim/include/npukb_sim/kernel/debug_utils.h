// npukb_sim/kernel/debug_utils.h -- the Utils API debugging functions (调测接口) of the SIMD kernel:
// asc_dump (and asc_dump_gm / _ubuf / _l1buf / _cbuf), clock, asc_time_stamp, asc_prof_start /
// asc_prof_stop. Their output goes to the launcher's log like printf and DumpTensor (debug.h); assert is
// debug.h's. Clean-room part of ascendc-sim.
//
// On the device __gm__, __ubuf__, __cbuf__ and __cc__ pointers are distinct types; here they are plain
// host pointers, so one template serves each overload set and the memory is told from the address: a
// registered GM tensor, or this block's UB, L1 or L0C. The named forms (asc_dump_gm, ...) check that
// the address is in their memory.
#pragma once
#include <cstdint>
#include <ctime>
#include <string>
#include <type_traits>

#include "npukb_sim/kernel/debug.h"
#include "npukb_sim/kernel/sys_var.h"
#include "npukb_sim/kernel/cube_cores.h"

namespace AscendC {
namespace sim {
namespace dbg {

enum class DumpMem : std::uint8_t { Any, GM, UB, L1, L0C };

template <typename T>
constexpr bool asc_dump_type() {
  return std::is_same_v<T, bool> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint8_t> ||
         std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::uint16_t> || std::is_same_v<T, half> ||
         std::is_same_v<T, bfloat16_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::uint32_t> ||
         std::is_same_v<T, float> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint64_t>;
}

inline const char* mem_text(DumpMem m) {
  switch (m) {
    case DumpMem::GM: return "GM";
    case DumpMem::UB: return "UB";
    case DumpMem::L1: return "L1";
    case DumpMem::L0C: return "L0C";
    default: return "?";
  }
}

// Which memory `p` points into, with that memory's start and size (GM: the registered tensor's home).
inline DumpMem locate(const std::uint8_t* p, const std::uint8_t** base, std::size_t* bytes) {
  npukb::BlockState& b = npukb::block();
  const struct { std::uint8_t* base; std::size_t bytes; DumpMem mem; } onchip[] = {
      {b.ub, npukb::kUbBytes, DumpMem::UB}, {b.l1, npukb::kL1Bytes, DumpMem::L1},
      {b.l0c, npukb::kL0cBytes, DumpMem::L0C}};
  for (const auto& m : onchip) {
    if (m.base != nullptr && p >= m.base && p < m.base + m.bytes) {
      *base = m.base;
      *bytes = m.bytes;
      return m.mem;
    }
  }
  if (const void* home = npukb::gm_home(p)) {
    *base = static_cast<const std::uint8_t*>(home);
    *bytes = 0;
    return DumpMem::GM;
  }
  return DumpMem::Any;
}

template <typename T>
inline void asc_dump(const char* api, DumpMem want, const T* input, std::uint32_t desc, std::uint32_t n) {
  static_assert(asc_dump_type<T>(), "asc_dump: T is bool, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, "
                                    "int32_t, uint32_t, float, int64_t or uint64_t");
  if (!NPUKB_DUMP_ON) return;
  const std::uint8_t* p = reinterpret_cast<const std::uint8_t*>(input);
  const std::uint8_t* base = nullptr;
  std::size_t region = 0;
  const DumpMem mem = locate(p, &base, &region);
  if (mem == DumpMem::Any) {
    npukb::violation(api, "input points neither into GM nor into this core's UB, L1 or L0C", nullptr, 0);
  }
  if (want != DumpMem::Any && mem != want) {
    npukb::violation(api, std::string("input points into ") + mem_text(mem) + ", not " + mem_text(want), nullptr, 0);
  }
  const std::uint64_t bytes = static_cast<std::uint64_t>(n) * sizeof(T);
  if (mem == DumpMem::GM) {
    npukb::check_gm_home(base, p, static_cast<std::size_t>(bytes), false, api, nullptr, 0);
  } else if (static_cast<std::uint64_t>(p - base) + bytes > region) {
    npukb::violation(api, "dumping " + npukb::kern::num(n) + " elements runs past the end of " + mem_text(mem),
                     nullptr, 0);
  }
  if (bytes > kPrintLimit) return;   // over the device's print limit: nothing printed
  char head[256];
  __builtin_snprintf(head, sizeof head, "%s: desc=%u, addr=%llu, data_type=%s, position=%s, dump_size=%u\n", api, desc,
                     static_cast<unsigned long long>(p - base), type_name<T>(), mem_text(mem), n);
  emit(head + values<T>(p, n, nullptr) + "\n");
}

}  // namespace dbg
}  // namespace sim
}  // namespace AscendC

template <typename T>
inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::sim::dbg::asc_dump("asc_dump_gm", AscendC::sim::dbg::DumpMem::GM, input, desc, dump_size);
}
template <typename T>
inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::sim::dbg::asc_dump("asc_dump_ubuf", AscendC::sim::dbg::DumpMem::UB, input, desc, dump_size);
}
template <typename T>
inline void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::sim::dbg::asc_dump("asc_dump_l1buf", AscendC::sim::dbg::DumpMem::L1, input, desc, dump_size);
}
template <typename T>
inline void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::sim::dbg::asc_dump("asc_dump_cbuf", AscendC::sim::dbg::DumpMem::L0C, input, desc, dump_size);
}
// asc_dump(__gm__ / __ubuf__ / __cbuf__ / __cc__ T*): one overload set on the device, one template here.
template <typename T>
inline void asc_dump(T* input, uint32_t desc, uint32_t dump_size) {
  AscendC::sim::dbg::asc_dump("asc_dump", AscendC::sim::dbg::DumpMem::Any, input, desc, dump_size);
}

// clock(): the block's cycle count since the kernel started (the cost model's estimate, as GetSystemCycle).
// The C library's clock() may be declared by the standard headers the simulator includes, so the name is
// routed to the simulator's function (as printf is).
// <ctime> comes first so that a later include of it (or of a header that brings it) declares nothing the
// macro would rename.
inline uint64_t npukb_kernel_clock(void) { return static_cast<uint64_t>(AscendC::GetSystemCycle()); }
namespace std { using ::npukb_kernel_clock; }
#define clock npukb_kernel_clock

// asc_time_stamp: printed only with -DASCENDC_TIME_STAMP_ON (off by default, as documented), in the
// documented form; timeStamp is the estimated cycle count, pcPtr and entry are 0 here.
inline void asc_time_stamp(uint32_t desc_id) {
#ifdef ASCENDC_TIME_STAMP_ON
  char buf[160];
  __builtin_snprintf(buf, sizeof buf, "descId is %u, rsv is 0, timeStamp is %lld, pcPtr is 0, entry is 0.\n", desc_id,
                     static_cast<long long>(AscendC::GetSystemCycle()));
  AscendC::sim::dbg::emit(buf);
#else
  (void)desc_id;
#endif
}

// Markers of the code range msOpProf profiles: no effect on the run or its estimate.
inline void asc_prof_start() {}
inline void asc_prof_stop() {}
