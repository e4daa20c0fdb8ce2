// A tiny implementation of npukb_sim/runtime.h for the kernel-side unit tests: blocks run
// sequentially on the calling thread (no SyncAll / cross-core flags), GM bounds come from
// register_gm, violations print one line and exit with code 3.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "call_site.h"
#include "npukb_sim/runtime.h"
#include "test_support.h"

namespace {
npukb::BlockState* g_current = nullptr;
std::vector<std::pair<const unsigned char*, std::size_t>> g_gm;
npukb_test::Figures g_last{};
unsigned char g_sys_ws[1024];

unsigned char* poisoned(std::size_t bytes) {
  void* p = std::aligned_alloc(512, bytes);
  std::memset(p, npukb::kPoisonByte, bytes);
  return static_cast<unsigned char*>(p);
}
}  // namespace

namespace npukb {
BlockState& block() {
  if (g_current == nullptr) {
    std::fprintf(stderr, "test runtime: kernel API used outside run_blocks\n");
    std::exit(4);
  }
  return *g_current;
}

// The location as the launcher writes it: a call-site token for the caller (file == nullptr), which
// simkit symbolises after the run as the toolchain does.
static std::string where(const char* file, int line) {
  return file == nullptr ? npukb::rt::call_site_token() : std::string(file) + ":" + std::to_string(line);
}

void violation(const char* api, const std::string& what, const char* file, int line) {
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

// Writes may run on to the end of a tensor's last 32-byte block, reads to the end of its 512-byte
// allocation granule, as in the launcher.
static std::size_t gm_limit(std::size_t size, bool write) {
  return write ? (size + 31) / 32 * 32 : (size + 511) / 512 * 512;
}

void check_gm(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line) {
  const unsigned char* a = static_cast<const unsigned char*>(addr);
  for (const auto& r : g_gm) {
    if (a >= r.first && a + bytes <= r.first + gm_limit(r.second, write)) return;
  }
  violation(api, std::string("GM out of bounds: ") + (write ? "write" : "read") + " of " + std::to_string(bytes) +
                     " bytes outside every GM tensor handed to the kernel", file, line);
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
                       " bytes outside the GM tensor this GlobalTensor was bound to", file, line);
  }
  check_gm(addr, bytes, write, api, file, line);
}

// Blocks run one after another here: a wait for a value another block has not written yet is a hang.
void wait_gm(const volatile std::int32_t* addr, std::int32_t lo, std::int32_t hi, const char* api, const char* file,
             int line) {
  if (*addr < lo || *addr > hi) violation(api, "hang: waits for a GM value no earlier block wrote (sequential test runtime)", file, line);
}

void sync_all(bool, const char* file, int line) { violation("SyncAll", "not supported by the sequential test runtime", file, line); }
void cross_core_set_flag(int, int, double, const char*, int) {}
double cross_core_wait_flag(int, const char* file, int line) {
  violation("CrossCoreWaitFlag", "not supported by the sequential test runtime", file, line);
}
std::uint8_t* sys_workspace() { return g_sys_ws; }
BlockState* cube_partner() { return nullptr; }
std::uint8_t* lazy_buffer(std::uint8_t** slot, std::size_t bytes) {
  if (*slot == nullptr) *slot = poisoned(bytes);   // the test runtime allocates every buffer up front
  return *slot;
}
void kernel_log(const std::string& text) {
  std::printf("[block %d] %s", g_current ? g_current->block_idx : -1, text.c_str());
  std::fflush(stdout);
}
}  // namespace npukb

namespace npukb_test {
void register_gm(void* ptr, std::size_t bytes) { g_gm.emplace_back(static_cast<unsigned char*>(ptr), bytes); }

double run_blocks(int block_num, void (*fn)(void*), void* arg) { return run_blocks_on(npukb::CORE_AIV, block_num, fn, arg); }

double run_blocks_on(int core_type, int block_num, void (*fn)(void*), void* arg) {
  double finish = 0.0;
  for (int b = 0; b < block_num; ++b) {
    npukb::BlockState st;
    st.block_idx = b;
    st.block_num = block_num;
    st.core_type = core_type;
    st.bt = poisoned(npukb::kBiasTableBytes);
    st.fb = poisoned(npukb::kFixBufBytes);
    st.ub = poisoned(npukb::kUbBytes);
    st.l1 = poisoned(npukb::kL1Bytes);
    st.l0a = poisoned(npukb::kL0aBytes);
    st.l0b = poisoned(npukb::kL0bBytes);
    st.l0c = poisoned(npukb::kL0cBytes);
    g_current = &st;
    fn(arg);
    g_current = nullptr;
    g_last.finish_cycles = st.finish_cycles;
    for (int p = 0; p < 7; ++p) g_last.pipe_cycles[p] = st.pipe_cycles[p];
    g_last.gm_read = st.gm_read_bytes;
    g_last.gm_write = st.gm_write_bytes;
    if (st.finish_cycles > finish) finish = st.finish_cycles;
    std::free(st.ub); std::free(st.l1); std::free(st.l0a); std::free(st.l0b); std::free(st.l0c);
    std::free(st.bt); std::free(st.fb);
  }
  return finish;
}
Figures last_figures() { return g_last; }

std::vector<unsigned char> read_file(const std::string& path) {
  std::vector<unsigned char> out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) { std::fprintf(stderr, "cannot open %s\n", path.c_str()); std::exit(5); }
  unsigned char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) out.insert(out.end(), buf, buf + n);
  std::fclose(f);
  return out;
}
void write_file(const std::string& path, const void* data, std::size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) { std::fprintf(stderr, "cannot write %s\n", path.c_str()); std::exit(5); }
  std::fwrite(data, 1, bytes, f);
  std::fclose(f);
}
}  // namespace npukb_test

namespace npukb {
std::uint64_t g_tiling_key = 0;
std::uint64_t launch_tiling_key() { return g_tiling_key; }
}  // namespace npukb

namespace {
std::string g_dir = ".";
struct OutBuf { int idx; unsigned char* p; std::size_t bytes; };
std::vector<OutBuf> g_outputs;
std::vector<OutBuf> g_inputs;
}  // namespace

namespace npukb_test {
void set_dir(const char* dir) { g_dir = dir; }
unsigned char* gm_input(int i, std::size_t* bytes) {
  std::vector<unsigned char> d = read_file(g_dir + "/in" + std::to_string(i) + ".bin");
  const std::size_t n = d.empty() ? 512 : (d.size() + 511) / 512 * 512;
  unsigned char* p = static_cast<unsigned char*>(std::aligned_alloc(512, n));
  if (!d.empty()) std::memcpy(p, d.data(), d.size());
  register_gm(p, d.size());
  if (bytes) *bytes = d.size();
  g_inputs.push_back({i, p, d.size()});
  return p;
}
unsigned char* gm_output(int i, std::size_t bytes) {
  const std::size_t n = bytes == 0 ? 512 : (bytes + 511) / 512 * 512;
  unsigned char* p = static_cast<unsigned char*>(std::aligned_alloc(512, n));
  std::memset(p, npukb::kPoisonByte, n);
  register_gm(p, bytes);
  g_outputs.push_back({i, p, bytes});
  return p;
}
void save_outputs() {
  for (const auto& o : g_outputs) write_file(g_dir + "/out" + std::to_string(o.idx) + ".bin", o.p, o.bytes);
}
}  // namespace npukb_test
namespace npukb_test {
void print_cycles(double cycles) { std::printf("cycles %.1f\n", cycles); std::fflush(stdout); }
}
namespace npukb_test {
void save_input_as_output(int i) {
  for (const auto& o : g_inputs) if (o.idx == i) g_outputs.push_back(o);
}
}  // namespace npukb_test
