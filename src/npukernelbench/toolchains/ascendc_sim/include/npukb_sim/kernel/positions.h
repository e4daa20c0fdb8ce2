// npukb_sim/kernel/positions.h -- logical positions (TPosition) and the physical buffers of the Ascend
// 910B they map to: names, the hardware of a position, start alignment, the block's buffer memory.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/types.h"

namespace AscendC {
namespace sim {

inline const char* position_name(TPosition p) {
  switch (p) {
    case TPosition::GM: return "GM";
    case TPosition::A1: return "A1";
    case TPosition::A2: return "A2";
    case TPosition::B1: return "B1";
    case TPosition::B2: return "B2";
    case TPosition::C1: return "C1";
    case TPosition::C2: return "C2";
    case TPosition::CO1: return "CO1";
    case TPosition::CO2: return "CO2";
    case TPosition::VECIN: return "VECIN";
    case TPosition::VECOUT: return "VECOUT";
    case TPosition::VECCALC: return "VECCALC";
    case TPosition::SPM: return "SPM";
    case TPosition::TSCM: return "TSCM";
    case TPosition::C2PIPE2GM: return "C2PIPE2GM";
    default: return "?";
  }
}

// TPosition -> physical buffer on the Ascend 910B (separated AIC/AIV architecture): C1 is L1, C2 the
// bias table, C2PIPE2GM the fixpipe buffer; CO2 and SPM are Global Memory there.
constexpr Hardware hardware_of(TPosition p) {
  switch (p) {
    case TPosition::A1: case TPosition::B1: case TPosition::C1: case TPosition::TSCM: return Hardware::L1;
    case TPosition::A2: return Hardware::L0A;
    case TPosition::B2: return Hardware::L0B;
    case TPosition::CO1: return Hardware::L0C;
    case TPosition::C2: return Hardware::BIAS;
    case TPosition::C2PIPE2GM: return Hardware::FIXBUF;
    case TPosition::GM: case TPosition::CO2: case TPosition::SPM: return Hardware::GM;
    default: return Hardware::UB;
  }
}

// Start-address alignment of each buffer (32 B UB/L1, 512 B L0A/L0B, 64 B L0C/BT/FB).
constexpr std::uint32_t hw_align(Hardware hw) {
  switch (hw) {
    case Hardware::L0A: case Hardware::L0B: return 512;
    case Hardware::L0C: case Hardware::BIAS: case Hardware::FIXBUF: return 64;
    default: return 32;
  }
}

inline void hw_region(Hardware hw, std::uint8_t*& base, std::uint32_t& bytes) {
  npukb::BlockState& b = npukb::block();
  std::uint8_t** slot;
  switch (hw) {
    case Hardware::L1: slot = &b.l1; bytes = static_cast<std::uint32_t>(npukb::kL1Bytes); break;
    case Hardware::L0A: slot = &b.l0a; bytes = static_cast<std::uint32_t>(npukb::kL0aBytes); break;
    case Hardware::L0B: slot = &b.l0b; bytes = static_cast<std::uint32_t>(npukb::kL0bBytes); break;
    case Hardware::L0C: slot = &b.l0c; bytes = static_cast<std::uint32_t>(npukb::kL0cBytes); break;
    case Hardware::BIAS: slot = &b.bt; bytes = static_cast<std::uint32_t>(npukb::kBiasTableBytes); break;
    case Hardware::FIXBUF: slot = &b.fb; bytes = static_cast<std::uint32_t>(npukb::kFixBufBytes); break;
    default: slot = &b.ub; bytes = static_cast<std::uint32_t>(npukb::kUbBytes); break;
  }
  base = *slot != nullptr ? *slot : npukb::lazy_buffer(slot, bytes);
}

inline const char* hw_name(Hardware hw) {
  switch (hw) {
    case Hardware::L1: return "L1";
    case Hardware::L0A: return "L0A";
    case Hardware::L0B: return "L0B";
    case Hardware::L0C: return "L0C";
    case Hardware::BIAS: return "BT (bias table)";
    case Hardware::FIXBUF: return "FB (fixpipe buffer)";
    default: return "UB";
  }
}

}  // namespace sim
}  // namespace AscendC
