// npukb_sim/kernel_macros.h -- kernel-entry qualifiers of the AscendC dialect, as seen by a host C++
// compiler. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
#ifndef __host_aicore__
#define __host_aicore__
#endif

// Branch hints of the device compiler (real kernels use them unqualified).
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

// ASSERT and ASSERT_MSG(cond, fmt, args...) expand to nothing in a device build (only the CPU-debug
// build checks them), so their arguments are neither evaluated nor compiled, exactly as on the device
// compiler.
#ifndef ASSERT
#define ASSERT(...)
#endif
#ifndef ASSERT_MSG
#define ASSERT_MSG(...)
#endif
