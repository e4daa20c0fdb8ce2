// npukb_sim/kernel/core_type.h -- which kind of core a block runs on: AscendC::AIV / AIC / MIX,
// g_coreType and ASCEND_IS_AIV / ASCEND_IS_AIC. Clean-room part of ascendc-sim.
//
// On the device compiler g_coreType is a compile-time constant of each split compile (the vector and
// the cube part of an operator are compiled separately). The simulator compiles one kernel TU for
// every block, so g_coreType is the running block's core type and `if ASCEND_IS_AIV { ... }` is an
// ordinary branch (both branches must compile, as in the CPU-debug build).
#pragma once
#include <cstdint>

#include "npukb_sim/runtime.h"

namespace AscendC {
constexpr std::int32_t MIX = 0;
constexpr std::int32_t AIC = 1;
constexpr std::int32_t AIV = 2;
}  // namespace AscendC

namespace npukb {
namespace kern {
inline std::int32_t core_type() { return static_cast<std::int32_t>(block().core_type); }
}  // namespace kern
}  // namespace npukb

#define g_coreType (::npukb::kern::core_type())
#define ASCEND_IS_AIV (g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != ::AscendC::AIC)
