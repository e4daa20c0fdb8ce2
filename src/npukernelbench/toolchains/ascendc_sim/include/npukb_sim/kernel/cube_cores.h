// npukb_sim/kernel/cube_cores.h -- the core-type side of mixed AIC/AIV kernels: ASCEND_IS_AIC /
// ASCEND_IS_AIV, the device-compiler qualifiers cube code uses, and the legacy mask intrinsic.
//
// As with the real toolchain, a kernel that uses the cube unit is compiled once per core type of its
// launch; the build's generated prelude defines `g_coreType` (AscendC::AIC or AscendC::AIV, a
// compile-time constant) and __DAV_C220_CUBE__ / __DAV_C220_VEC__ for each pass (docs/simulator.md).
// Clean-room part of ascendc-sim.
#pragma once

#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/vec_mask.h"

#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)

#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __forceinline__
#define __forceinline__ inline
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif

// Legacy device built-in (vector mask mode).
inline void set_mask_norm() { AscendC::SetMaskNorm(); }
inline void set_mask_count() { AscendC::SetMaskCount(); }

// The running TPipe is reachable at global scope too (kernel libraries call it unqualified).
using AscendC::GetTPipePtr;

// Scalar min/max built into the device compiler (used unqualified by kernel libraries). Plain
// overloads, so that a kernel's own min/max templates still win for other types.
#define NPUKB_SCALAR_MINMAX(T)                                  \
  inline T min(T a, T b) { return b < a ? b : a; }              \
  inline T max(T a, T b) { return a < b ? b : a; }
NPUKB_SCALAR_MINMAX(std::int32_t)
NPUKB_SCALAR_MINMAX(std::uint32_t)
NPUKB_SCALAR_MINMAX(std::int64_t)
NPUKB_SCALAR_MINMAX(std::uint64_t)
NPUKB_SCALAR_MINMAX(float)
#undef NPUKB_SCALAR_MINMAX
