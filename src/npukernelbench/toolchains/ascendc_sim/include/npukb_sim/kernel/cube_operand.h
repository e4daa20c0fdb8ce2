// npukb_sim/kernel/cube_operand.h -- operand checks shared by the cube-path APIs: which buffer a
// LocalTensor lives in, start alignment (L1 32 B, L0A/L0B 512 B, L0C/BT 64 B) and bounds, with one-line
// messages naming the API, the operand and the buffer. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

#include "npukb_sim/kernel/cube_cost.h"
#include "npukb_sim/kernel/pipe.h"

namespace AscendC {
namespace sim {

inline std::string hw_list(std::initializer_list<Hardware> allowed) {
  std::string s;
  for (Hardware h : allowed) {
    if (!s.empty()) s += " or ";
    s += hw_name(h);
  }
  return s;
}

// `what` of `api` must be allocated, live in one of `allowed`, start at the buffer's alignment (or
// `align` when non-zero) and hold `bytes` bytes from its start.
template <typename T>
inline void check_cube_operand(const char* api, const char* what, const LocalTensor<T>& t, std::uint64_t bytes,
                               std::initializer_list<Hardware> allowed, const char* file, int line,
                               std::uint32_t align = 0) {
  const LocalLoc& l = t.loc();
  if (l.base == nullptr) {
    npukb::violation(api, std::string(what) + " LocalTensor was never allocated (AllocTensor/Get missing)", file, line);
  }
  bool ok = false;
  for (Hardware h : allowed) ok = ok || h == l.hw;
  if (!ok) {
    npukb::violation(api, std::string(what) + " must be in " + hw_list(allowed) + ", but it is a " +
                     position_name(l.pos) + " tensor in " + hw_name(l.hw), file, line);
  }
  const std::uint32_t a = align != 0 ? align : hw_align(l.hw);
  if (l.addr % a != 0) {
    npukb::violation(api, std::string("unaligned ") + hw_name(l.hw) + " address: " + what + " starts at offset " +
                     npukb::kern::num(l.addr) + ", which is not " + npukb::kern::num(a) + "-byte aligned", file, line);
  }
  const std::uint64_t have = static_cast<std::uint64_t>(t.GetSize()) * sizeof(T);
  if (bytes > have || l.addr + bytes > l.region_bytes) {
    npukb::violation(api, std::string(hw_name(l.hw)) + " overflow: " + what + " needs " +
                     npukb::kern::num(static_cast<long long>(bytes)) + " bytes from offset " + npukb::kern::num(l.addr) +
                     " but the LocalTensor holds " + npukb::kern::num(static_cast<long long>(have)) + " bytes (" +
                     hw_name(l.hw) + " is " + npukb::kern::num(l.region_bytes) + " bytes)", file, line);
  }
}

template <typename T>
inline npukb::kern::CubeSpan cube_span(const LocalTensor<T>& t, std::uint64_t begin, std::uint64_t end) {
  npukb::kern::CubeSpan s;
  s.hw = t.loc().hw;
  s.begin = static_cast<std::uint32_t>(t.loc().addr + begin);
  s.end = static_cast<std::uint32_t>(t.loc().addr + end);
  return s;
}

// The cube unit lives only on AI cube cores: a cube instruction on a vector core is an error.
inline void require_cube_core(const char* api, const char* file, int line) {
  if (npukb::block().core_type != npukb::CORE_AIC) {
    npukb::violation(api, "cube instruction on an AI vector core (AIV): Mmad, LoadData, Fixpipe and L1 copies run "
                     "on the cube core only; guard them with ASCEND_IS_AIC (or use KERNEL_TYPE_AIC_ONLY / "
                     "KERNEL_TYPE_MIX_AIC_1_2)", file, line);
  }
}

}  // namespace sim
}  // namespace AscendC
