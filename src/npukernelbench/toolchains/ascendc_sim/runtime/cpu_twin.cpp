// cpu_twin.cpp -- the runtime of a CPU-twin (CPU孪生调试) program: implements npukb_sim/runtime.h for a
// user's host program that allocates GM with GmAlloc and runs a kernel with ICPU_RUN_KF (kern_fwk.h,
// stub_def.h), and the device C library's run-time-size memory functions. Part of the ascendc-sim
// clean-room simulator.
//
// Blocks run one after another on the calling thread (no SyncAll, cross-core flags or waits on another
// block's GM writes: those are reported). Violations print one line "VIOLATION: api: what (block b, where)"
// and exit with status 3; kernel printf / DumpTensor / asc_dump lines go to stdout prefixed "[block b]".
// Compiled without the kernel headers: the C library here is the host's.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "call_site.h"
#include "npukb_sim/runtime.h"
#include "tools/cpudebug/include/kern_fwk.h"
#include "tools/cpudebug/include/stub_def.h"

namespace {
npukb::BlockState* g_current = nullptr;
std::vector<std::pair<const unsigned char*, std::size_t>> g_gm;   // GmAlloc'd tensors
unsigned char g_sys_ws[16 * 1024];
AscendC::KernelMode g_mode = AscendC::KernelMode::MIX_MODE;
std::uint64_t g_tiling_key = 0;

unsigned char* poisoned(std::size_t bytes) {
  void* p = std::aligned_alloc(512, (bytes + 511) / 512 * 512);
  if (p == nullptr) {
    std::fprintf(stderr, "cpu twin: out of memory (%zu bytes)\n", bytes);
    std::exit(4);
  }
  std::memset(p, npukb::kPoisonByte, bytes);
  return static_cast<unsigned char*>(p);
}

std::string where(const char* file, int line) {
  return file == nullptr ? npukb::rt::call_site_token() : std::string(file) + ":" + std::to_string(line);
}

// Writes may run on to the end of a tensor's last 32-byte block, reads to the end of its 512-byte
// granule, as in the launcher.
std::size_t gm_limit(std::size_t size, bool write) { return write ? (size + 31) / 32 * 32 : (size + 511) / 512 * 512; }
}  // namespace

namespace AscendC {
void* GmAlloc(size_t size) {
  unsigned char* p = poisoned(size == 0 ? 1 : size);
  g_gm.emplace_back(p, size);
  return p;
}

void GmFree(void* ptr) {
  for (auto it = g_gm.begin(); it != g_gm.end(); ++it) {
    if (it->first == ptr) {
      g_gm.erase(it);
      std::free(ptr);
      return;
    }
  }
  std::fprintf(stderr, "GmFree: %p was not returned by GmAlloc (or was freed already)\n", ptr);
  std::exit(4);
}

void SetKernelMode(KernelMode mode) { g_mode = mode; }
}  // namespace AscendC

namespace npukb {
BlockState& block() {
  if (g_current == nullptr) {
    std::fprintf(stderr, "cpu twin: a kernel API was used outside ICPU_RUN_KF\n");
    std::exit(4);
  }
  return *g_current;
}

void violation(const char* api, const std::string& what, const char* file, int line) {
  std::fflush(stdout);
  std::fprintf(stderr, "VIOLATION: %s: %s (block %d, %s)\n", api, what.c_str(), g_current ? g_current->block_idx : -1,
               where(file, line).c_str());
  std::fflush(stderr);
  std::exit(3);
}

void warning(const char* api, const std::string& what, const char* file, int line) {
  std::fprintf(stderr, "WARNING: %s: %s (block %d, %s)\n", api, what.c_str(), g_current ? g_current->block_idx : -1,
               where(file, line).c_str());
  std::fflush(stderr);
}

void check_gm(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line) {
  const unsigned char* a = static_cast<const unsigned char*>(addr);
  for (const auto& r : g_gm) {
    if (a >= r.first && a + bytes <= r.first + gm_limit(r.second, write)) return;
  }
  violation(api, std::string("GM out of bounds: ") + (write ? "write" : "read") + " of " + std::to_string(bytes) +
                     " bytes outside every GmAlloc'd buffer", file, line);
}

const void* gm_home(const void* addr) {
  const unsigned char* a = static_cast<const unsigned char*>(addr);
  for (const auto& r : g_gm) {
    if (a >= r.first && a < r.first + gm_limit(r.second, true)) return r.first;
  }
  return nullptr;
}

void check_gm_home(const void* home, const void* addr, std::size_t bytes, bool write, const char* api, const char* file,
                   int line) {
  for (const auto& r : g_gm) {
    if (r.first != home) continue;
    const unsigned char* a = static_cast<const unsigned char*>(addr);
    if (a >= r.first && a + bytes <= r.first + gm_limit(r.second, write)) return;
    violation(api, std::string("GM out of bounds: ") + (write ? "write" : "read") + " of " + std::to_string(bytes) +
                       " bytes outside the GM buffer this GlobalTensor was bound to", file, line);
  }
  check_gm(addr, bytes, write, api, file, line);
}

void wait_gm(const volatile std::int32_t* addr, std::int32_t lo, std::int32_t hi, const char* api, const char* file,
             int line) {
  if (*addr < lo || *addr > hi) violation(api, "hang: waits for a GM value no earlier block wrote (the CPU twin runs "
                                               "blocks one after another)", file, line);
}
void sync_all(bool, const char* file, int line) {
  violation("SyncAll", "not supported by the CPU twin (blocks run one after another)", file, line);
}
void cross_core_set_flag(int, int, double, const char*, int) {}
double cross_core_wait_flag(int, const char* file, int line) {
  violation("CrossCoreWaitFlag", "not supported by the CPU twin (blocks run one after another)", file, line);
}
std::uint8_t* sys_workspace() { return g_sys_ws; }
BlockState* cube_partner() { return nullptr; }
std::uint8_t* lazy_buffer(std::uint8_t** slot, std::size_t bytes) {
  if (*slot == nullptr) *slot = poisoned(bytes);
  return *slot;
}
// Inside a block: "[block b] text"; the host program's own printf (tikicpulib.h brings the kernel's) as is.
void kernel_log(const std::string& text) {
  if (g_current != nullptr) std::printf("[block %d] %s", g_current->block_idx, text.c_str());
  else std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}
std::uint64_t launch_tiling_key() { return g_tiling_key; }

namespace cpu_twin {
void set_tiling_key(std::uint64_t key) { g_tiling_key = key; }

void run(const char* name, std::uint32_t numBlocks, const std::function<void()>& body) {
  if (numBlocks == 0 || numBlocks > 65535) {
    std::fprintf(stderr, "ICPU_RUN_KF %s: numBlocks %u is not in [1, 65535]\n", name, numBlocks);
    std::exit(4);
  }
  // AIC_MODE runs cube blocks; AIV_MODE and MIX_MODE vector blocks (a MIX kernel's cube side needs its own
  // compile pass and the concurrent launcher).
  const bool cube = g_mode == AscendC::KernelMode::AIC_MODE;
  double finish = 0.0;
  for (std::uint32_t b = 0; b < numBlocks; ++b) {
    BlockState st;
    st.block_idx = static_cast<int>(b);
    st.block_num = static_cast<int>(numBlocks);
    st.core_idx = static_cast<int>(b);
    st.core_type = cube ? CORE_AIC : CORE_AIV;
    st.kernel_type = cube ? 1 : 0;   // KERNEL_TYPE_AIC_ONLY / KERNEL_TYPE_AIV_ONLY
    st.ub = poisoned(kUbBytes);
    st.l1 = poisoned(kL1Bytes);
    st.l0a = poisoned(kL0aBytes);
    st.l0b = poisoned(kL0bBytes);
    st.l0c = poisoned(kL0cBytes);
    st.bt = poisoned(kBiasTableBytes);
    st.fb = poisoned(kFixBufBytes);
    g_current = &st;
    body();
    g_current = nullptr;
    if (st.finish_cycles > finish) finish = st.finish_cycles;
    std::free(st.ub); std::free(st.l1); std::free(st.l0a); std::free(st.l0b); std::free(st.l0c);
    std::free(st.bt); std::free(st.fb);
  }
  std::fflush(stdout);
  std::fprintf(stderr, "ICPU_RUN_KF %s: %u blocks, estimated %.0f cycles (%.2f us)\n", name, numBlocks, finish,
               finish / (kClockGhz * 1000.0));
}
}  // namespace cpu_twin
}  // namespace npukb

// The device C library's run-time-size memory functions (npukb_sim/kernel/device_libc.h).
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
