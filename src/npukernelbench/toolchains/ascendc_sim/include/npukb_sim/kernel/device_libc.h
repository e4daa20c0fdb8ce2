// npukb_sim/kernel/device_libc.h -- the C library's memory functions as device code sees them
// (docs/simulator.md "Device code has no C library"). Clean-room part of ascendc-sim.
//
// The AI core has no C library. The device compiler still folds a memory function whose size is a
// compile-time constant into plain moves (a builtin), and emits its own block copies for struct
// assignments and array initialisers; only a call whose size is known at run time needs the library.
// The kernel TU sees these functions as inline wrappers (first in the TU: the kernel prelude and the
// simulator's kernel headers include this header before anything else): a constant size becomes the
// compiler builtin (inline moves, or the compiler's own `memcpy`/`memset` libcall, which the build
// points at the runtime's costed versions), a run-time size calls npukb_libc_<name>. The build's
// device-symbol check (device_symbols.py) rejects every call of an npukb_libc_ function made by the
// kernel's own code, naming the C function; the simulator's own code may call them (the runtime
// defines them, runtime/raw_access.cpp).
#pragma once

namespace npukb {
extern "C" {
void* npukb_libc_memcpy(void* dst, const void* src, __SIZE_TYPE__ n) noexcept;
void* npukb_libc_memmove(void* dst, const void* src, __SIZE_TYPE__ n) noexcept;
void* npukb_libc_memset(void* dst, int c, __SIZE_TYPE__ n) noexcept;
int npukb_libc_memcmp(const void* a, const void* b, __SIZE_TYPE__ n) noexcept;
void* npukb_libc_mempcpy(void* dst, const void* src, __SIZE_TYPE__ n) noexcept;
void npukb_libc_bcopy(const void* src, void* dst, __SIZE_TYPE__ n) noexcept;
void npukb_libc_bzero(void* dst, __SIZE_TYPE__ n) noexcept;
}
}  // namespace npukb

// gnu_inline: these bodies only ever inline; the out-of-line symbols stay the C library's.
#define NPUKB_DEVICE_LIBC extern inline __attribute__((__always_inline__, __gnu_inline__, __artificial__))

extern "C" {
NPUKB_DEVICE_LIBC void* memcpy(void* dst, const void* src, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) return __builtin_memcpy(dst, src, n);
  return npukb::npukb_libc_memcpy(dst, src, n);
}
NPUKB_DEVICE_LIBC void* memmove(void* dst, const void* src, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) return __builtin_memmove(dst, src, n);
  return npukb::npukb_libc_memmove(dst, src, n);
}
NPUKB_DEVICE_LIBC void* memset(void* dst, int c, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) return __builtin_memset(dst, c, n);
  return npukb::npukb_libc_memset(dst, c, n);
}
NPUKB_DEVICE_LIBC int memcmp(const void* a, const void* b, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) return __builtin_memcmp(a, b, n);
  return npukb::npukb_libc_memcmp(a, b, n);
}
NPUKB_DEVICE_LIBC void* mempcpy(void* dst, const void* src, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) return static_cast<unsigned char*>(__builtin_memcpy(dst, src, n)) + n;
  return npukb::npukb_libc_mempcpy(dst, src, n);
}
NPUKB_DEVICE_LIBC void bcopy(const void* src, void* dst, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) {
    __builtin_memmove(dst, src, n);
    return;
  }
  npukb::npukb_libc_bcopy(src, dst, n);
}
NPUKB_DEVICE_LIBC void bzero(void* dst, __SIZE_TYPE__ n) noexcept {
  if (__builtin_constant_p(n)) {
    __builtin_memset(dst, 0, n);
    return;
  }
  npukb::npukb_libc_bzero(dst, n);
}
}

#undef NPUKB_DEVICE_LIBC
