// npukb_sim/reduce_pattern.h -- AscendC::ReducePattern, the reduce / normal axis pattern of the
// high-level reduction and normalization APIs (A: a normal axis, R: a reduced one, outermost first),
// with the documented enumerators and values. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

namespace AscendC {

enum class ReducePattern : std::uint32_t {
  AR = 0,
  RA = 1,
  R,
  ARA,
  ARAR,
  ARARA,
  ARARAR,
  ARARARA,
  ARARARAR,
  ARARARARA,
  RAR,
  RARA,
  RARAR,
  RARARA,
  RARARAR,
  RARARARA,
};

}  // namespace AscendC
