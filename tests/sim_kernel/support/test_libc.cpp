// test_libc.cpp -- the C library's memory functions with a run-time size, as the simulator's runtime
// defines them for kernel code (npukb_sim/kernel/device_libc.h routes such calls here; in a build the
// runtime's raw_access.cpp defines them). The test programs link the test runtime instead of the
// launcher, so it carries them. Compiled without the kernel headers: std::memcpy here is the C library's.
#include <cstddef>
#include <cstring>

extern "C" {
void* npukb_libc_memcpy(void* d, const void* s, std::size_t n) noexcept { return std::memcpy(d, s, n); }
void* npukb_libc_memmove(void* d, const void* s, std::size_t n) noexcept { return std::memmove(d, s, n); }
void* npukb_libc_memset(void* d, int c, std::size_t n) noexcept { return std::memset(d, c, n); }
int npukb_libc_memcmp(const void* a, const void* b, std::size_t n) noexcept { return std::memcmp(a, b, n); }
void* npukb_libc_mempcpy(void* d, const void* s, std::size_t n) noexcept {
  return static_cast<unsigned char*>(std::memcpy(d, s, n)) + n;
}
void npukb_libc_bcopy(const void* s, void* d, std::size_t n) noexcept { std::memmove(d, s, n); }
void npukb_libc_bzero(void* d, std::size_t n) noexcept { std::memset(d, 0, n); }
}
