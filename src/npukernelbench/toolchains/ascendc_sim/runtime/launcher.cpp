// launcher.cpp -- main() of the ascendc-sim launcher, which loads a candidate's shared object (its
// host TU and kernel TU, built by builder.py) after confining itself.
// Part of the ascendc-sim clean-room simulator; implements npukb_sim/runtime.h.
//
//   launcher describe <so>        print the registered tiling classes (build step, see tilingdata_base.h)
//   launcher run <dir> <so>       run <dir>/request.txt, write <dir>/result.json and output .bin files
//
// Start-up (docs/security.md): no candidate code runs before the boundary is up. The launcher reads
// and checks the harness's request, forks the InferShape helper, closes every descriptor it does not
// need, drops its capabilities, restricts itself with Landlock (read: the loaded system libraries and
// the candidate's shared object; read-write: the run's directory; nothing else) and installs the
// candidate seccomp allow-list (npukb_boundary.h). Only then does it say "candidate" on the harness's
// phase channel (NPUKB_PHASE_FD), close it, and dlopen the shared object: its static initialisers,
// however spelt, run inside the boundary. A request error before that point is the harness's; after
// it, everything is the candidate's. No candidate thread may outlive the host steps, none can be
// started once the blocks exist, and the process ends with _exit (no candidate destructor runs after
// the result is written).
//
// Run: instantiate the OpDef registered for the op type, check the case's parameters against it,
// run its TilingFunc with a real gert::TilingContext, build the GM buffers (inputs copied in,
// outputs poisoned unless aliased to an input, workspace poisoned, tiling bytes; the poison pattern
// depends on the request's poison_seed, see set_poison_seed), then run every
// block as a thread, cooperatively scheduled (exactly one block runs at a time; a block yields only
// at SyncAll or a cross-core wait), so runs are deterministic. A barrier or a wait nobody can
// satisfy is a hang and is reported as a violation.
//
// Exit codes: 0 ran to the end; 3 hardware violation in the kernel; 4 launch refused (host side:
// OpDef, TilingFunc, block dim, tiling size); 2 bad request (a bug of the caller).
#include <dlfcn.h>
#include <link.h>
#include <poll.h>
#include <time.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <functional>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "call_site.h"
#include "guarded_state.h"
#include "npukb_boundary.h"
#include "npukb_sim/runtime.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "register/op_config_registry.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

namespace {

// The kernel trampolines generated into the kernel TU (absent from a describe build), looked up in the
// candidate's shared object once it is loaded: the vector (AIV) pass, the cube (AIC) pass of a kernel
// that uses the cube unit, and the kernel type the build inferred (KERNEL_TASK_TYPE_DEFAULT /
// KERNEL_TASK_TYPE or the APIs used; see kernel_passes.py).
using EntryFn = void (*)(std::uint8_t**);
using KernelTypeFn = int (*)(std::uint64_t);
EntryFn npukb_entry = nullptr;
EntryFn npukb_entry_aic = nullptr;
KernelTypeFn npukb_kernel_type = nullptr;

constexpr int kExitViolation = 3;
constexpr int kExitLaunch = 4;
constexpr int kExitRequest = 2;
constexpr std::size_t kTilingCapacity = 64 * 1024;      // raw tiling buffer handed to TilingFunc
constexpr std::size_t kLogLimit = 64 * 1024;            // kernel printf bytes kept
constexpr double kLaunchOverheadUs = 3.0;               // fixed kernel launch cost of the estimate
constexpr double kHbmBytesPerUs = npukb::kHbmGBs * 1e3;  // 1.6 TB/s
constexpr std::size_t kBlockStackBytes = 16u << 20;
constexpr uint32_t kMaxLogicalBlocks = 256;   // logical blocks of a vector kernel (simulator limit)

std::string g_out_dir = ".";
std::string g_log;
bool g_log_truncated = false;
std::mutex g_log_mutex;
std::atomic<int>& g_running_block = npukb::rt::g_guard.running_block;
std::uint64_t g_tiling_key = 0;

// ---------------------------------------------------------------------------------------------
// JSON output

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string json_num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

// Fields written into result.json as they become known (insertion order kept).
std::vector<std::pair<std::string, std::string>> g_result;

void result_set(const std::string& key, const std::string& raw_json) {
  for (auto& kv : g_result) {
    if (kv.first == key) {
      kv.second = raw_json;
      return;
    }
  }
  g_result.emplace_back(key, raw_json);
}

// Kernel warnings (npukb::warning): one per source location, at most kMaxWarnings.
constexpr std::size_t kMaxWarnings = 20;
std::mutex g_warn_mutex;
std::vector<std::string> g_warnings;
std::vector<std::string> g_warned_at;

void write_result() {
  std::string text = "{";
  bool first = true;
  for (auto& kv : g_result) {
    text += (first ? "" : ",\n ") + json_str(kv.first) + ": " + kv.second;
    first = false;
  }
  {
    std::lock_guard<std::mutex> lk(g_warn_mutex);
    std::string list = "[";
    for (const auto& w : g_warnings) list += (list.size() > 1 ? ", " : "") + json_str(w);
    text += std::string(first ? "" : ",\n ") + "\"kernel_warnings\": " + list + "]";
    first = false;
  }
  {
    std::lock_guard<std::mutex> lk(g_log_mutex);
    text += std::string(first ? "" : ",\n ") + "\"log\": " + json_str(g_log) +
            ",\n \"log_truncated\": " + (g_log_truncated ? "true" : "false");
  }
  text += "}\n";
  std::string path = g_out_dir + "/result.json";
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    std::fprintf(stderr, "npukb launcher: cannot write %s: %s\n", tmp.c_str(), std::strerror(errno));
    return;
  }
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  std::rename(tmp.c_str(), path.c_str());
}

bool g_infer_child = false;             // the InferShape helper process: it reports through its pipe only

[[noreturn]] void fail(int code, const std::string& status, const std::string& message) {
  if (g_infer_child) _exit(0);          // the parent meets the same problem and reports it
  result_set("status", json_str(status));
  result_set("message", json_str(message));
  write_result();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(code);
}

[[noreturn]] void launch_error(const std::string& message) { fail(kExitLaunch, "launch_error", message); }
[[noreturn]] void request_error(const std::string& message) { fail(kExitRequest, "request_error", message); }

// ---------------------------------------------------------------------------------------------
// GM: every tensor is its own mapping, placed so that its (512-byte rounded) end touches a guard page.

struct Region {
  std::uint8_t* start;
  std::size_t size;
  std::string name;
};

std::vector<Region> g_regions;          // sorted by start after setup
std::size_t g_page = 4096;

// Poison of outputs, workspace and on-chip memory. Seed 0: every byte 0xA5 (npukb::kPoisonByte).
// Any other seed: an 8-byte pattern derived from the seed (splitmix64) repeated from the start of
// each buffer, so a harness that runs a candidate twice with different seeds sees different values
// wherever the kernel reads memory it never wrote.
std::uint8_t g_poison[8] = {npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte,
                            npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte, npukb::kPoisonByte};

void set_poison_seed(std::int64_t seed) {
  if (seed == 0) return;
  std::uint64_t z = static_cast<std::uint64_t>(seed) + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  for (int i = 0; i < 8; ++i) g_poison[i] = static_cast<std::uint8_t>(z >> (8 * i));
}

void poison(std::uint8_t* p, std::size_t bytes) {
  std::size_t head = bytes < 8 ? bytes : 8;
  std::memcpy(p, g_poison, head);
  // Doubling copies: the filled prefix is a whole number of patterns.
  for (std::size_t done = head; done < bytes;) {
    std::size_t n = std::min(done, bytes - done);
    std::memcpy(p + done, p, n);
    done += n;
  }
}

std::uint8_t* gm_alloc(std::size_t bytes, const std::string& name) {
  std::size_t rounded = (bytes + 511) / 512 * 512;
  std::size_t data_pages = (rounded + g_page - 1) / g_page;
  std::size_t total = (data_pages + 1) * g_page;
  void* map = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    launch_error("cannot allocate " + std::to_string(bytes) + " bytes of GM for '" + name + "'");
  }
  std::uint8_t* base = static_cast<std::uint8_t*>(map);
  mprotect(base + data_pages * g_page, g_page, PROT_NONE);
  std::uint8_t* start = base + data_pages * g_page - rounded;
  poison(start, rounded);
  g_regions.push_back(Region{start, bytes, name});
  return start;
}

void sort_regions() {
  std::sort(g_regions.begin(), g_regions.end(),
            [](const Region& a, const Region& b) { return a.start < b.start; });
}

// ---------------------------------------------------------------------------------------------
// Blocks and the cooperative scheduler

enum class BlockRun { READY, RUNNING, BARRIER, WAIT_FLAG, WAIT_GM, WAIT_COND, DONE };

constexpr int kFlagIds = 16;             // CrossCoreSetFlag flag ids 0..15
constexpr int kFlagCounterMax = 15;      // a flag counter holds at most 15 pending sets

// KernelMetaType values (npukb_sim/tiling_kernel.h).
enum KernelType : int { K_AIV_ONLY = 0, K_AIC_ONLY, K_MIX_AIV_1_0, K_MIX_AIC_1_0, K_MIX_AIC_1_1, K_MIX_AIC_1_2,
                        K_AICORE, K_VECTORCORE, K_MIX_AICORE, K_MIX_VECTOR_CORE };

struct BlockSlot {
  npukb::BlockState* state = nullptr;   // in the private mapping (guarded_state.h)
  BlockRun run = BlockRun::READY;
  std::string wait_where;       // file:line of the SyncAll / wait it blocks in
  int wait_flag = -1;
  const volatile std::int32_t* wait_addr = nullptr;   // WAIT_GM: a GM word the block polls ...
  std::int32_t wait_lo = 0, wait_hi = 0;              // ... until it lies in [wait_lo, wait_hi]
  const char* wait_api = "";
  std::function<bool()> wait_cond;   // WAIT_COND: runnable again once it holds (wait_for)
  std::string wait_what;
  int barrier_group = 0;        // SyncAll: 0 every core, 1 the cores of this block's type
  std::deque<double> flag_sem[kFlagIds];              // delivered, not yet consumed flags (their times)
  std::deque<double> flag_pending[3][kFlagIds];       // sets waiting for the rest of their group, per mode
  std::vector<std::uint8_t*> memories;
  pthread_t thread{};
};

std::vector<BlockSlot> g_blocks;
std::mutex g_sched_mutex;
std::condition_variable g_sched_cv;
int g_current = -1;                 // block allowed to run; -2 when all finished
bool g_started = false;
std::uint8_t** g_args = nullptr;
std::uint8_t* g_workspace = nullptr;
npukb::BlockState g_host_state;     // what block() returns outside kernel threads
int g_kernel_type = K_AIV_ONLY;
bool g_mixed = false;               // AIC and AIV blocks in one launch
bool g_waves = false;               // more vector blocks than vector cores: they run in waves
int g_aiv_per_core = 1;

// A report's source location: an explicit file:line, none for "", else (nullptr) the kernel line that
// called the API, as a call-site token the toolchain symbolises after the run (call_site.h).
std::string where(const char* file, int line) {
  if (file == nullptr) return npukb::rt::call_site_token();
  return *file ? std::string(file) + ":" + std::to_string(line) : std::string();
}

// "block 3" for single-core-type launches, "AIC 1" / "AIV 3" (core 1, sub-block 1) for mixed ones.
std::string block_name(int b) {
  if (b < 0 || b >= static_cast<int>(g_blocks.size())) return "block " + std::to_string(b);
  const npukb::BlockState& st = *g_blocks[b].state;
  if (!g_mixed) return "block " + std::to_string(st.block_idx);
  return std::string(st.core_type == npukb::CORE_AIC ? "AIC " : "AIV ") + std::to_string(st.block_idx);
}

[[noreturn]] void hang(const std::string& detail) {
  npukb::violation("hang", detail + " -- on hardware this kernel never finishes", "", 0);
}

bool barrier_member(int b, int group, int core_type) {
  return group == 0 || g_blocks[b].state->core_type == core_type;
}

// Releases a SyncAll whose every member arrived; true when one was released.
bool release_barrier_locked() {
  int n = static_cast<int>(g_blocks.size());
  for (int b = 0; b < n; ++b) {
    if (g_blocks[b].run != BlockRun::BARRIER) continue;
    const int group = g_blocks[b].barrier_group, type = g_blocks[b].state->core_type;
    bool all = true;
    for (int k = 0; k < n && all; ++k) {
      if (barrier_member(k, group, type)) all = g_blocks[k].run == BlockRun::BARRIER && g_blocks[k].barrier_group == group;
    }
    if (!all) continue;
    int first = -1;
    for (int k = 0; k < n; ++k) {
      if (!barrier_member(k, group, type)) continue;
      g_blocks[k].run = BlockRun::READY;
      if (first < 0) first = k;
    }
    g_current = first;
    g_sched_cv.notify_all();
    return true;
  }
  return false;
}

// Picks the next block to run; called with g_sched_mutex held by the block that stops running.
void schedule_next_locked(int from) {
  int n = static_cast<int>(g_blocks.size());
  for (int k = 1; k <= n; ++k) {
    int b = (from + k) % n;
    BlockSlot& s = g_blocks[b];
    if (s.run == BlockRun::READY) {
      g_current = b;
      g_sched_cv.notify_all();
      return;
    }
    if ((s.run == BlockRun::WAIT_FLAG && !s.flag_sem[s.wait_flag].empty()) ||
        (s.run == BlockRun::WAIT_GM && *s.wait_addr >= s.wait_lo && *s.wait_addr <= s.wait_hi)) {
      s.run = BlockRun::READY;
      g_current = b;
      g_sched_cv.notify_all();
      return;
    }
    if (s.run == BlockRun::WAIT_COND && s.wait_cond()) {
      s.run = BlockRun::READY;
      s.wait_cond = nullptr;
      g_current = b;
      g_sched_cv.notify_all();
      return;
    }
  }
  int live = 0, done = 0, at_barrier = 0, at_gm = 0, at_cond = 0;
  for (auto& s : g_blocks) {
    live += s.run != BlockRun::DONE;
    done += s.run == BlockRun::DONE;
    at_barrier += s.run == BlockRun::BARRIER;
    at_gm += s.run == BlockRun::WAIT_GM;
    at_cond += s.run == BlockRun::WAIT_COND;
  }
  if (live == 0) {
    g_current = -2;
    g_sched_cv.notify_all();
    return;
  }
  if (release_barrier_locked()) return;
  std::vector<std::string> parts;
  int listed = 0, waiting = 0;
  for (int b = 0; b < n; ++b) {
    const BlockSlot& s = g_blocks[b];
    if (s.run != BlockRun::BARRIER && s.run != BlockRun::WAIT_FLAG && s.run != BlockRun::WAIT_GM &&
        s.run != BlockRun::WAIT_COND) {
      continue;
    }
    ++waiting;
    if (listed >= 6) continue;
    ++listed;
    if (s.run == BlockRun::BARRIER) {
      parts.push_back(block_name(b) + " waits in SyncAll at " + s.wait_where);
    } else if (s.run == BlockRun::WAIT_GM) {
      parts.push_back(block_name(b) + " waits in " + s.wait_api + " at " + s.wait_where);
    } else if (s.run == BlockRun::WAIT_COND) {
      parts.push_back(block_name(b) + " waits in " + s.wait_what + " at " + s.wait_where);
    } else {
      parts.push_back(block_name(b) + " waits in CrossCoreWaitFlag(" + std::to_string(s.wait_flag) + ") at " + s.wait_where);
    }
  }
  if (waiting > listed) parts.push_back("... (" + std::to_string(waiting - listed) + " more)");
  std::string detail;
  for (std::size_t i = 0; i < parts.size(); ++i) detail += (i ? "; " : "") + parts[i];
  if (done > 0 && at_barrier > 0) {
    detail += "; " + std::to_string(done) + " block(s) finished without reaching the barrier (every block must call "
              "SyncAll the same number of times)";
  } else if (at_gm > 0) {
    detail += "; no block writes what they wait for in GM (a block that returned or never reached the matching "
              "call, fewer sets than waits, or a workspace that was not initialised to 0)";
    if (done > 0) detail += "; " + std::to_string(done) + " block(s) already finished";
  } else if (at_cond > 0) {
    detail += "; no core can end these waits (a cube group message never posted, freed or quit, or a GroupBarrier "
              "Arrive missing)";
    if (done > 0) detail += "; " + std::to_string(done) + " block(s) already finished";
  } else {
    detail += "; no core can set the awaited flag (a missing CrossCoreSetFlag, a set with another mode or flag id, "
              "or fewer sets than waits)";
    if (done > 0) detail += "; " + std::to_string(done) + " block(s) already finished";
  }
  hang("deadlock: " + detail);
}

// Every blocking point (SyncAll, CrossCoreWaitFlag, a block's start) waits here. The simulator-code
// depth of raw-access costing (raw_access.cpp) is one global, as exactly one block runs at a time: a
// block keeps its own across the wait (taken while it still holds g_sched_mutex, so no other block
// has run yet).
void wait_turn_locked(std::unique_lock<std::mutex>& lk, int b) {
  const int depth = npukb::rt::g_guard.sim_depth;
  g_sched_cv.wait(lk, [b] { return g_current == b; });
  g_blocks[b].run = BlockRun::RUNNING;
  g_running_block = b;
  npukb::rt::g_guard.sim_depth = depth;
}

std::uint8_t* block_memory(BlockSlot& slot, std::size_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, 4096, bytes) != 0) {
    launch_error("cannot allocate " + std::to_string(bytes) + " bytes of on-chip memory for a block");
  }
  poison(static_cast<std::uint8_t*>(p), bytes);
  slot.memories.push_back(static_cast<std::uint8_t*>(p));
  return static_cast<std::uint8_t*>(p);
}

void* block_main(void* arg) {
  int b = static_cast<int>(reinterpret_cast<std::intptr_t>(arg));
  BlockSlot& slot = g_blocks[b];
  {
    std::unique_lock<std::mutex> lk(g_sched_mutex);
    wait_turn_locked(lk, b);
  }
  // On-chip memory of the core type: UB on a vector core; L1, L0A/B/C, BT and FB on a cube core.
  if (slot.state->core_type == npukb::CORE_AIC) {
    slot.state->l1 = block_memory(slot, npukb::kL1Bytes);
    slot.state->l0a = block_memory(slot, npukb::kL0aBytes);
    slot.state->l0b = block_memory(slot, npukb::kL0bBytes);
    slot.state->l0c = block_memory(slot, npukb::kL0cBytes);
    slot.state->bt = block_memory(slot, npukb::kBiasTableBytes);
    slot.state->fb = block_memory(slot, npukb::kFixBufBytes);
    npukb::rt::g_guard.sim_depth = 0;     // the kernel's own code starts (raw_access.cpp)
    npukb_entry_aic(g_args);
  } else {
    slot.state->ub = block_memory(slot, npukb::kUbBytes);
    npukb::rt::g_guard.sim_depth = 0;
    npukb_entry(g_args);
  }
  for (auto* p : slot.memories) {
    std::free(p);
  }
  slot.memories.clear();
  slot.state->ub = slot.state->l1 = slot.state->l0a = slot.state->l0b = slot.state->l0c = nullptr;
  slot.state->bt = slot.state->fb = nullptr;
  std::unique_lock<std::mutex> lk(g_sched_mutex);
  slot.run = BlockRun::DONE;
  g_running_block = -1;
  schedule_next_locked(b);
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Crash reporting: name the block (or the host step) on stderr, then die of the same signal.

const char* g_phase = "startup";

void on_crash(int sig) {
  char buf[320];
  int b = g_running_block.load();
  int n;
  if (b >= 0) {
    n = std::snprintf(buf, sizeof buf, "npukb: block %d of the kernel crashed (signal %d)\n", b, sig);
  } else {
    n = std::snprintf(buf, sizeof buf, "npukb: crashed during %s (signal %d)\n", g_phase, sig);
  }
  if (n > 0) {
    ssize_t ignored = write(2, buf, static_cast<std::size_t>(n));
    (void)ignored;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// Integer division by zero in a kernel block completes as on the device (runtime/scalar_division.cpp).
void on_fpe(int sig, siginfo_t* info, void* context) {
  if (g_running_block.load() >= 0 && info != nullptr && (info->si_code == FPE_INTDIV || info->si_code == FPE_INTOVF) &&
      npukb::resume_division(context)) {
    return;
  }
  on_crash(sig);
}

// A system call the boundary forbids (seccomp SECCOMP_RET_TRAP): name it, then die of SIGSYS.
void on_sigsys(int sig, siginfo_t* info, void*) {
  char buf[400];
  const long nr = info != nullptr ? static_cast<long>(info->si_syscall) : -1;
  const char* name = nb_syscall_name(nr);
  const int b = g_running_block.load();
  char where[160];
  if (b >= 0) {
    std::snprintf(where, sizeof where, "block %d of the kernel", b);
  } else {
    std::snprintf(where, sizeof where, "%s", g_phase);
  }
  const int n = std::snprintf(buf, sizeof buf,
                              "npukb: forbidden system call %s (number %ld) during %s: candidate code may not start "
                              "programs or processes, open sockets, trace or signal other processes (signal %d)\n",
                              name != nullptr ? name : "?", nr, where, sig);
  if (n > 0) {
    ssize_t ignored = write(2, buf, static_cast<std::size_t>(n));
    (void)ignored;
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void install_crash_handlers() {
  static std::vector<char> alt(1 << 16);
  stack_t ss{};
  ss.ss_sp = alt.data();
  ss.ss_size = alt.size();
  sigaltstack(&ss, nullptr);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS}) {
    struct sigaction sa {};
    if (sig == SIGFPE) {
      sa.sa_sigaction = on_fpe;
      sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    } else if (sig == SIGSYS) {
      sa.sa_sigaction = on_sigsys;
      sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    } else {
      sa.sa_handler = on_crash;
      sa.sa_flags = SA_ONSTACK;
    }
    sigaction(sig, &sa, nullptr);
  }
}

// ---------------------------------------------------------------------------------------------
// Request

struct DtypeInfo {
  const char* ge_name;
  ge::DataType ge;
};

const DtypeInfo kDtypes[] = {
    {"DT_FLOAT", ge::DT_FLOAT},     {"DT_FLOAT16", ge::DT_FLOAT16},   {"DT_BF16", ge::DT_BF16},
    {"DT_INT8", ge::DT_INT8},       {"DT_UINT8", ge::DT_UINT8},       {"DT_INT16", ge::DT_INT16},
    {"DT_UINT16", ge::DT_UINT16},   {"DT_INT32", ge::DT_INT32},       {"DT_UINT32", ge::DT_UINT32},
    {"DT_INT64", ge::DT_INT64},     {"DT_UINT64", ge::DT_UINT64},     {"DT_DOUBLE", ge::DT_DOUBLE},
    {"DT_BOOL", ge::DT_BOOL},       {"DT_COMPLEX64", ge::DT_COMPLEX64}, {"DT_COMPLEX128", ge::DT_COMPLEX128},
};

ge::DataType parse_ge(const std::string& name) {
  for (const auto& d : kDtypes) {
    if (name == d.ge_name) return d.ge;
  }
  request_error("unknown ge dtype " + name);
}

std::string ge_name(ge::DataType dt) {
  for (const auto& d : kDtypes) {
    if (d.ge == dt) return d.ge_name;
  }
  return "DT_" + std::to_string(static_cast<int>(dt));
}

struct TensorReq {
  std::vector<int64_t> shape;
  std::string file;              // input data file ("-" for outputs)
  std::size_t bytes = 0;
  std::uint8_t* gm = nullptr;
};

struct ParamReq {
  std::string role;              // input | output
  std::string name;
  std::string ptype;             // REQUIRED | OPTIONAL | DYNAMIC
  std::string dtype;             // spec name
  ge::DataType ge = ge::DT_UNDEFINED;
  std::size_t itemsize = 0;
  bool absent = false;
  std::string alias;             // output: input whose buffer it shares
  std::vector<TensorReq> tensors;
  std::uint8_t* arg = nullptr;   // what the kernel receives
};

struct AttrReq {
  std::string name;
  std::string type;              // float int bool str list_int list_float list_bool
  std::vector<std::string> values;
};

struct Request {
  std::string op;
  std::vector<ParamReq> params;
  std::vector<AttrReq> attrs;
  std::int64_t poison_seed = 0;
};

std::string unhex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

Request read_request(const std::string& path) {
  std::ifstream in(path);
  if (!in) request_error("cannot read " + path);
  Request req;
  std::string line;
  ParamReq* current = nullptr;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ss(line);
    std::string tag;
    if (!(ss >> tag) || tag[0] == '#') continue;
    try {
      if (tag == "npukb-request") {
        int version = 0;
        ss >> version;
        if (version != 1) request_error("request version " + std::to_string(version) + " not supported");
      } else if (tag == "op") {
        ss >> req.op;
      } else if (tag == "poison_seed") {
        ss >> req.poison_seed;
      } else if (tag == "param") {
        ParamReq p;
        std::string count;
        ss >> p.role >> p.name >> p.ptype >> p.dtype;
        std::string ge;
        ss >> ge >> p.itemsize >> count >> p.alias;
        p.ge = parse_ge(ge);
        if (p.alias == "-") p.alias.clear();
        p.absent = count == "absent";
        req.params.push_back(p);
        current = &req.params.back();
      } else if (tag == "tensor") {
        if (current == nullptr) request_error("tensor line before any param");
        TensorReq t;
        std::size_t rank = 0;
        ss >> rank;
        t.shape.resize(rank);
        for (auto& d : t.shape) ss >> d;
        ss >> t.file;
        current->tensors.push_back(t);
      } else if (tag == "attr") {
        AttrReq a;
        ss >> a.name >> a.type;
        std::string v;
        while (ss >> v) a.values.push_back(v);
        req.attrs.push_back(a);
      } else if (tag == "end") {
        break;
      } else {
        request_error("line " + std::to_string(lineno) + ": unknown tag " + tag);
      }
    } catch (const std::exception& e) {
      request_error("line " + std::to_string(lineno) + ": " + e.what());
    }
    if (!ss && !ss.eof()) request_error("line " + std::to_string(lineno) + ": malformed: " + line);
  }
  return req;
}

void read_file_into(const std::string& path, std::uint8_t* dst, std::size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) request_error("cannot open " + path);
  std::size_t got = bytes ? std::fread(dst, 1, bytes, f) : 0;
  std::fclose(f);
  if (got != bytes) request_error(path + ": expected " + std::to_string(bytes) + " bytes, got " + std::to_string(got));
}

void write_file(const std::string& path, const std::uint8_t* src, std::size_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) request_error("cannot write " + path);
  if (bytes) std::fwrite(src, 1, bytes, f);
  std::fclose(f);
}

// ---------------------------------------------------------------------------------------------
// OpDef checks

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string option_name(ops::Option o) {
  switch (o) {
    case ops::REQUIRED: return "REQUIRED";
    case ops::OPTIONAL: return "OPTIONAL";
    case ops::DYNAMIC: return "DYNAMIC";
    default: return "IGNORE";
  }
}

// The ascend910b AI Core configuration of an OpDef: added with AICore().AddConfig (its OpAICoreConfig
// or none), else registered with REGISTER_OP_AICORE_CONFIG (whose configuration is kept here). False
// when the OpDef has none for the 910B.
bool config_910b(const ops::OpDef& def, const ops::OpAICoreConfig** cfg) {
  *cfg = nullptr;
  bool found = false;
  for (const auto& s : def.NpukbAICore().NpukbSocs()) {
    if (lower(s).rfind("ascend910b", 0) == 0) {
      found = true;
      *cfg = def.NpukbAICore().NpukbConfig(s);
    }
  }
  if (found) return true;
  auto& registry = ops::NpukbAICoreConfigRegistry();
  auto op = registry.find(def.NpukbType());
  if (op == registry.end()) return false;
  static std::map<std::string, ops::OpAICoreConfig> kept;
  for (const auto& [soc, func] : op->second) {
    if (lower(soc).rfind("ascend910b", 0) == 0 && func != nullptr) {
      auto slot = kept.emplace(def.NpukbType(), func()).first;
      *cfg = &slot->second;
      return true;
    }
  }
  return false;
}

// Checks the case's parameters against the OpDef and returns the DataType column they use.
std::size_t check_params(const ops::OpDef& def, const std::vector<ParamReq>& params) {
  const ops::OpAICoreConfig* cfg = nullptr;
  bool has_910b = config_910b(def, &cfg);
  if (!has_910b) {
    launch_error("OpDef " + def.NpukbType() + " declares no AI Core configuration for ascend910b: add "
                 "this->AICore().AddConfig(\"ascend910b\") to its constructor");
  }
  std::vector<const ops::OpParamDef*> declared;
  std::vector<std::string> roles;
  for (const auto* list : {&def.NpukbInputs(), &def.NpukbOutputs()}) {
    for (const auto& p : *list) {
      const ops::OpParamDef* chosen = &p;
      if (cfg != nullptr) {
        const auto& over = list == &def.NpukbInputs() ? cfg->NpukbInputs() : cfg->NpukbOutputs();
        for (const auto& q : over) {
          if (q.NpukbName() == p.NpukbName() && !q.NpukbDataTypes().empty()) chosen = &q;
        }
      }
      declared.push_back(chosen);
      roles.push_back(list == &def.NpukbInputs() ? "input" : "output");
    }
  }
  auto names = [&](const std::string& role) {
    std::string s;
    for (std::size_t i = 0; i < declared.size(); ++i) {
      if (roles[i] == role) s += (s.empty() ? "" : ", ") + declared[i]->NpukbName();
    }
    for (const auto& p : params) {
      (void)p;
    }
    return "(" + s + ")";
  };
  auto case_names = [&](const std::string& role) {
    std::string s;
    for (const auto& p : params) {
      if (p.role == role) s += (s.empty() ? "" : ", ") + p.name;
    }
    return "(" + s + ")";
  };
  bool same = declared.size() == params.size();
  for (std::size_t i = 0; same && i < params.size(); ++i) {
    same = declared[i]->NpukbName() == params[i].name && roles[i] == params[i].role;
  }
  if (!same) {
    launch_error("OpDef " + def.NpukbType() + " declares inputs " + names("input") + " and outputs " + names("output") +
                 " but the task has inputs " + case_names("input") + " and outputs " + case_names("output") +
                 ": declare them with this->Input(...) / this->Output(...) in the task's order and names");
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    std::string want = params[i].ptype;
    std::string got = option_name(declared[i]->NpukbParamType());
    if (want != got && !(want == "REQUIRED" && got == "OPTIONAL")) {
      launch_error("OpDef " + def.NpukbType() + " declares " + params[i].role + " '" + params[i].name + "' as " + got +
                   " but the task passes it as " + want + ": use .ParamType(" + want + ")");
    }
  }
  // Data type combinations: column j of every DataType list must give the case's dtypes.
  std::size_t columns = 0;
  for (const auto* d : declared) {
    if (!d->NpukbDataTypeList()) columns = std::max(columns, d->NpukbDataTypes().size());
  }
  auto matches = [&](std::size_t j) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      const auto& types = declared[i]->NpukbDataTypes();
      if (types.empty()) continue;
      if (declared[i]->NpukbDataTypeList()) {
        if (std::find(types.begin(), types.end(), params[i].ge) == types.end()) return false;
      } else if (j >= types.size() || types[j] != params[i].ge) {
        return false;
      }
    }
    return true;
  };
  bool ok = columns == 0 ? matches(0) : false;
  std::size_t column = 0;
  for (std::size_t j = 0; j < columns && !ok; ++j) {
    ok = matches(j);
    column = j;
  }
  if (!ok) {
    std::string want;
    for (const auto& p : params) want += (want.empty() ? "" : ", ") + p.name + "=" + ge_name(p.ge);
    launch_error("OpDef " + def.NpukbType() + " supports no data type combination (" + want +
                 "): add it as one column of the DataType({...}) lists of every input and output");
  }
  return column;
}

// Fills an output buffer with the initial value its OpDef declares (OpParamDef::InitValue), as the
// memset the framework inserts before the kernel does. The value's type gives the element size.
void fill_init_value(std::uint8_t* gm, std::size_t bytes, const ops::ScalarVar& v) {
  std::uint8_t pattern[8] = {};
  std::size_t size = 8;
  const auto& n = v.scalar_num;
  switch (v.scalar_type) {
    case ops::ScalarType::UINT64: case ops::ScalarType::INT64: std::memcpy(pattern, &n.value_u64, 8); break;
    case ops::ScalarType::UINT32: case ops::ScalarType::INT32: {
      std::uint32_t x = static_cast<std::uint32_t>(n.value_u64); std::memcpy(pattern, &x, 4); size = 4; break;
    }
    case ops::ScalarType::UINT16: case ops::ScalarType::INT16: {
      std::uint16_t x = static_cast<std::uint16_t>(n.value_u64); std::memcpy(pattern, &x, 2); size = 2; break;
    }
    case ops::ScalarType::UINT8: case ops::ScalarType::INT8: pattern[0] = static_cast<std::uint8_t>(n.value_u64); size = 1; break;
    case ops::ScalarType::FLOAT32: std::memcpy(pattern, &n.value_f32, 4); size = 4; break;
    case ops::ScalarType::FLOAT16: {
      _Float16 h = static_cast<_Float16>(n.value_f32); std::memcpy(pattern, &h, 2); size = 2; break;
    }
    default: return;
  }
  for (std::size_t i = 0; i + size <= bytes; i += size) std::memcpy(gm + i, pattern, size);
}

// ---------------------------------------------------------------------------------------------
// Attributes in OpDef order

void append_attr(gert::RuntimeAttrs& attrs, const ops::OpAttrDef& decl, const AttrReq* given) {
  using K = ops::OpAttrDef::Kind;
  std::string name = decl.NpukbName();
  K kind = decl.NpukbKind();
  auto kind_of = [](const std::string& t) {
    if (t == "float") return K::FLOAT;
    if (t == "int") return K::INT;
    if (t == "bool") return K::BOOL;
    if (t == "str") return K::STR;
    if (t == "list_int") return K::LIST_INT;
    if (t == "list_float") return K::LIST_FLOAT;
    if (t == "list_bool") return K::LIST_BOOL;
    request_error("unknown attribute type " + t);
  };
  auto list = [&](std::size_t count, std::size_t elem, auto fill) {
    std::vector<std::uint8_t> buf(sizeof(gert::ContinuousVector) + count * elem + 8, 0);
    auto* cv = reinterpret_cast<gert::ContinuousVector*>(buf.data());
    cv->Init(count);
    cv->SetSize(count);
    fill(static_cast<std::uint8_t*>(cv->MutableData()));
    attrs.NpukbAppend(buf.data(), buf.size());
  };
  if (given == nullptr) {
    if (!decl.NpukbHasDefault()) {
      if (decl.NpukbAttrType() == ops::REQUIRED) {
        launch_error("OpDef attribute '" + name + "' is REQUIRED but the task passes no value for it");
      }
      attrs.NpukbAppendAbsent();
      return;
    }
    switch (kind) {
      case K::BOOL: { bool v = decl.NpukbBool(); attrs.NpukbAppend(&v, sizeof v); return; }
      case K::FLOAT: { float v = decl.NpukbFloat(); attrs.NpukbAppend(&v, sizeof v); return; }
      case K::INT: { int64_t v = decl.NpukbInt(); attrs.NpukbAppend(&v, sizeof v); return; }
      case K::STR: attrs.NpukbAppend(decl.NpukbStr().c_str(), decl.NpukbStr().size() + 1); return;
      case K::LIST_INT: {
        const auto& v = decl.NpukbListInt();
        list(v.size(), 8, [&](std::uint8_t* d) { std::memcpy(d, v.data(), v.size() * 8); });
        return;
      }
      case K::LIST_FLOAT: {
        const auto& v = decl.NpukbListFloat();
        list(v.size(), 4, [&](std::uint8_t* d) { std::memcpy(d, v.data(), v.size() * 4); });
        return;
      }
      case K::LIST_BOOL: {
        const auto& v = decl.NpukbListBool();
        list(v.size(), 1, [&](std::uint8_t* d) { for (std::size_t i = 0; i < v.size(); ++i) d[i] = v[i]; });
        return;
      }
      default: attrs.NpukbAppendAbsent(); return;
    }
  }
  K want = kind_of(given->type);
  if (kind != K::NONE && kind != want) {
    launch_error("OpDef attribute '" + name + "' has a different type than the task's " + given->type +
                 " attribute: declare it with the matching Attr(...) type");
  }
  const auto& vals = given->values;
  switch (want) {
    case K::FLOAT: { float v = std::stof(vals.at(0)); attrs.NpukbAppend(&v, sizeof v); return; }
    case K::INT: { int64_t v = std::stoll(vals.at(0)); attrs.NpukbAppend(&v, sizeof v); return; }
    case K::BOOL: { bool v = vals.at(0) == "1"; attrs.NpukbAppend(&v, sizeof v); return; }
    case K::STR: {
      std::string s = vals.empty() ? std::string() : unhex(vals[0]);
      attrs.NpukbAppend(s.c_str(), s.size() + 1);
      return;
    }
    case K::LIST_INT:
      list(vals.size(), 8, [&](std::uint8_t* d) {
        for (std::size_t i = 0; i < vals.size(); ++i) { int64_t v = std::stoll(vals[i]); std::memcpy(d + 8 * i, &v, 8); }
      });
      return;
    case K::LIST_FLOAT:
      list(vals.size(), 4, [&](std::uint8_t* d) {
        for (std::size_t i = 0; i < vals.size(); ++i) { float v = std::stof(vals[i]); std::memcpy(d + 4 * i, &v, 4); }
      });
      return;
    case K::LIST_BOOL:
      list(vals.size(), 1, [&](std::uint8_t* d) { for (std::size_t i = 0; i < vals.size(); ++i) d[i] = vals[i] == "1"; });
      return;
    default: attrs.NpukbAppendAbsent();
  }
}

// ---------------------------------------------------------------------------------------------

// One line per class, nested classes first:
//   class <name> <size> <align> <builtin 0|1>
//   field <name> <scalar|array|struct> <offset> <elem_size> <count> <type...>
//   end
void describe_class(const optiling::TilingDef& def, std::ostream& out) {
  for (const auto& f : def.NpukbFields()) {
    if (f.kind == 2) describe_class(*def.NpukbNested(f), out);
  }
  out << "class " << def.GetTilingClassName() << ' ' << def.GetDataSize() << ' ' << def.NpukbAlign() << ' '
      << (def.NpukbBuiltin() ? 1 : 0) << '\n';
  static const char* kinds[] = {"scalar", "array", "struct"};
  for (const auto& f : def.NpukbFields()) {
    out << "field " << f.name << ' ' << kinds[f.kind] << ' ' << f.offset << ' ' << f.elem_size << ' ' << f.count << ' '
        << f.type << '\n';
  }
  out << "end\n";
}

// The signature of one OpDef, as the aclnn API generated for it orders its arguments (inputs, then
// attributes, then outputs, each in declaration order):
//   param <input|output> <name> <REQUIRED|OPTIONAL|DYNAMIC> <per_column|any> <ge dtype>...
//   attr <name> <kind> <REQUIRED|OPTIONAL> <default|-> <value>...      (str values: hex of UTF-8)
// The DataType lists are those of the ascend910b AI Core configuration where it overrides them;
// "any" marks a DataTypeList (one list for every column).
const char* attr_kind_name(ops::OpAttrDef::Kind kind) {
  using K = ops::OpAttrDef::Kind;
  switch (kind) {
    case K::BOOL: return "bool";
    case K::FLOAT: return "float";
    case K::INT: return "int";
    case K::STR: return "str";
    case K::LIST_BOOL: return "list_bool";
    case K::LIST_FLOAT: return "list_float";
    case K::LIST_INT: return "list_int";
    case K::LIST_LIST_INT: return "list_list_int";
    default: return "none";
  }
}

std::string hex_of(const std::string& s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out.empty() ? "-" : out;
}

void describe_signature(const ops::OpDef& def, std::ostream& out) {
  const ops::OpAICoreConfig* cfg = nullptr;
  config_910b(def, &cfg);
  for (const auto* list : {&def.NpukbInputs(), &def.NpukbOutputs()}) {
    bool inputs = list == &def.NpukbInputs();
    for (const auto& p : *list) {
      const ops::OpParamDef* chosen = &p;
      if (cfg != nullptr) {
        for (const auto& q : inputs ? cfg->NpukbInputs() : cfg->NpukbOutputs()) {
          if (q.NpukbName() == p.NpukbName() && !q.NpukbDataTypes().empty()) chosen = &q;
        }
      }
      out << "param " << (inputs ? "input" : "output") << ' ' << p.NpukbName() << ' '
          << option_name(p.NpukbParamType()) << ' ' << (chosen->NpukbDataTypeList() ? "any" : "per_column");
      for (auto dt : chosen->NpukbDataTypes()) out << ' ' << ge_name(dt);
      out << '\n';
      const ops::OpParamDef* formats = chosen->NpukbFormats().empty() ? &p : chosen;
      if (!formats->NpukbFormats().empty()) {
        out << "format " << (inputs ? "input" : "output") << ' ' << p.NpukbName() << ' '
            << (formats->NpukbFormatList() ? "any" : "per_column");
        for (auto f : formats->NpukbFormats()) out << ' ' << static_cast<int>(f);
        out << '\n';
      }
    }
  }
  using K = ops::OpAttrDef::Kind;
  for (const auto& a : def.NpukbAttrs()) {
    out << "attr " << a.NpukbName() << ' ' << attr_kind_name(a.NpukbKind()) << ' '
        << (a.NpukbAttrType() == ops::REQUIRED ? "REQUIRED" : "OPTIONAL");
    if (!a.NpukbHasDefault()) {
      out << " -\n";
      continue;
    }
    out << " default";
    char buf[64];
    switch (a.NpukbKind()) {
      case K::BOOL: out << ' ' << (a.NpukbBool() ? 1 : 0); break;
      case K::FLOAT: std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(a.NpukbFloat())); out << ' ' << buf; break;
      case K::INT: out << ' ' << a.NpukbInt(); break;
      case K::STR: out << ' ' << hex_of(a.NpukbStr()); break;
      case K::LIST_BOOL: for (bool v : a.NpukbListBool()) out << ' ' << (v ? 1 : 0); break;
      case K::LIST_FLOAT:
        for (float v : a.NpukbListFloat()) {
          std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
          out << ' ' << buf;
        }
        break;
      case K::LIST_INT: for (auto v : a.NpukbListInt()) out << ' ' << v; break;
      default: break;
    }
    out << '\n';
  }
}

int describe() {
  auto& reg = optiling::NpukbTilingRegistry();
  for (const auto& kv : reg) {
    std::cout << "register " << kv.first << ' ' << kv.second.class_name << '\n';
    std::unique_ptr<optiling::TilingDef> obj(kv.second.factory());
    describe_class(*obj, std::cout);
  }
  for (const auto& kv : ops::NpukbOpRegistry()) {
    std::cout << "opdef " << kv.first << '\n';
    std::unique_ptr<ops::OpDef> def(kv.second(kv.first.c_str()));
    describe_signature(*def, std::cout);
    std::cout << "endop\n";
  }
  return 0;
}

std::size_t tensor_bytes(const ParamReq& p, const TensorReq& t) {
  std::size_t n = 1;
  for (auto d : t.shape) {
    if (d < 0) request_error("negative dimension in " + p.name);
    n *= static_cast<std::size_t>(d);
  }
  return n * p.itemsize;
}

std::uint8_t* build_list_descriptor(ParamReq& p) {
  std::vector<std::uint64_t> words{0};
  for (auto& t : p.tensors) {
    words.push_back(static_cast<std::uint64_t>(t.shape.size()));
    for (auto d : t.shape) words.push_back(static_cast<std::uint64_t>(d));
  }
  words[0] = words.size() * sizeof(std::uint64_t);
  for (auto& t : p.tensors) words.push_back(reinterpret_cast<std::uintptr_t>(t.gm));
  std::uint8_t* gm = gm_alloc(words.size() * sizeof(std::uint64_t), p.name + " (tensor-list descriptor)");
  std::memcpy(gm, words.data(), words.size() * sizeof(std::uint64_t));
  return gm;
}

// ---------------------------------------------------------------------------------------------
// InferShape / InferDataType against the task's outputs

// "y" for a plain output, "y[1]" for the second tensor of a list output; by flattened output index.
std::vector<std::string> output_labels(const std::vector<ParamReq>& params) {
  std::vector<std::string> labels;
  for (const auto& p : params) {
    if (p.role != "output" || p.absent) continue;
    for (std::size_t j = 0; j < p.tensors.size(); ++j) {
      labels.push_back(p.tensors.size() > 1 || p.ptype == "DYNAMIC" ? p.name + "[" + std::to_string(j) + "]" : p.name);
    }
  }
  return labels;
}

std::string shape_text(const gert::Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.GetDimNum(); ++i) out += (i ? ", " : "") + std::to_string(s.GetDim(i));
  return out + "]";
}

// An inferred dim of -1 (unknown) matches any size; an inferred shape [-2] (unknown rank) any shape.
bool shape_agrees(const gert::Shape& inferred, const gert::Shape& actual) {
  if (inferred.GetDimNum() == 1 && inferred.GetDim(0) == ge::UNKNOWN_DIM_NUM) return true;
  if (inferred.GetDimNum() != actual.GetDimNum()) return false;
  for (std::size_t i = 0; i < inferred.GetDimNum(); ++i) {
    if (inferred.GetDim(i) != ge::UNKNOWN_DIM && inferred.GetDim(i) != actual.GetDim(i)) return false;
  }
  return true;
}

// Runs the op's InferShape with every output shape empty and compares each output it describes with
// the shape of the tensor the task passes. "" when they agree, else what disagrees.
std::string infer_shape_disagreement(ops::InferShapeKernelFunc fn, const gert::NpukbIoTable& io,
                                     const Request& req) {
  gert::NpukbIoTable infer = io;
  for (auto& t : infer.outputs) t.MutableShape() = gert::StorageShape();
  gert::InferShapeContext ctx(&infer);
  ge::graphStatus status;
  try {
    status = fn(&ctx);
  } catch (const std::exception& e) {
    return std::string("InferShape of op " + req.op + " threw an exception: ") + e.what();
  } catch (...) {
    return "InferShape of op " + req.op + " threw an exception";
  }
  if (status != ge::GRAPH_SUCCESS) {
    return "InferShape of op " + req.op + " returned failure (status " + std::to_string(status) + ")";
  }
  std::vector<std::string> labels = output_labels(req.params);
  for (std::size_t i = 0; i < io.outputs.size() && i < labels.size(); ++i) {
    const gert::Shape& inferred = infer.outputs[i].GetOriginShape();
    const gert::Shape& actual = io.outputs[i].GetStorageShape();
    if (!shape_agrees(inferred, actual)) {
      return "InferShape of op " + req.op + " gives output '" + labels[i] + "' the shape " + shape_text(inferred) +
             " but the task's output '" + labels[i] + "' has shape " + shape_text(actual);
    }
  }
  return "";
}

// Runs the op's InferDataType with every output dtype DT_UNDEFINED and compares each dtype it sets
// with the task's. "" when they agree, else what disagrees.
std::string infer_datatype_disagreement(ops::InferDataTypeKernelFunc fn, const gert::NpukbIoTable& io,
                                        const Request& req) {
  gert::NpukbIoTable infer = io;
  for (auto& t : infer.outputs) t.NpukbDesc().SetDataType(ge::DT_UNDEFINED);
  gert::InferDataTypeContext ctx(&infer);
  ge::graphStatus status;
  try {
    status = fn(&ctx);
  } catch (const std::exception& e) {
    return std::string("InferDataType of op " + req.op + " threw an exception: ") + e.what();
  } catch (...) {
    return "InferDataType of op " + req.op + " threw an exception";
  }
  if (status != ge::GRAPH_SUCCESS) {
    return "InferDataType of op " + req.op + " returned failure (status " + std::to_string(status) + ")";
  }
  std::vector<std::string> labels = output_labels(req.params);
  for (std::size_t i = 0; i < io.outputs.size() && i < labels.size(); ++i) {
    ge::DataType inferred = infer.outputs[i].GetDataType();
    ge::DataType actual = io.outputs[i].GetDataType();
    if (inferred != ge::DT_UNDEFINED && inferred != actual) {
      return "InferDataType of op " + req.op + " gives output '" + labels[i] + "' the data type " + ge_name(inferred) +
             " but the task's output '" + labels[i] + "' is " + ge_name(actual);
    }
  }
  return "";
}

// InferShape and InferDataType as graph mode would run them, compared with the task's outputs. The
// single-operator (aclnn) path the benchmark calls does not run them (the caller allocates the
// outputs), so what they get wrong is a warning, not a failure; they run in a helper process, forked
// before the boundary went up and confined like the launcher (start_infer_child), so that a crash, a
// hang or a side effect of theirs cannot touch the launch. One line per finding.
pid_t g_infer_pid = -1;          // the helper; -1 when it could not be started
int g_infer_fd = -1;             // read end of its findings
constexpr int kInferLimitS = 10; // the helper's time: it dies of SIGALRM (set before it loads the candidate)

// The helper's side: what InferShape / InferDataType get wrong, one line each.
std::string infer_findings(ops::InferShapeKernelFunc shape_fn, ops::InferDataTypeKernelFunc dtype_fn,
                           const gert::NpukbIoTable& io, const Request& req) {
  std::string out;
  if (shape_fn != nullptr) out += infer_shape_disagreement(shape_fn, io, req) + "\n";
  if (dtype_fn != nullptr) out += infer_datatype_disagreement(dtype_fn, io, req) + "\n";
  return out;
}

// The launcher's side: the helper's findings (it reports nothing when the op has neither function).
std::vector<std::string> infer_warnings(ops::InferShapeKernelFunc shape_fn, ops::InferDataTypeKernelFunc dtype_fn,
                                        const Request& req) {
  std::vector<std::string> warnings;
  if (g_infer_pid < 0) {
    if (shape_fn != nullptr || dtype_fn != nullptr) {
      warnings.push_back("InferShape/InferDataType not checked: cannot start the helper process");
    }
    return warnings;
  }
  std::string text;
  bool timed_out = false;
  for (;;) {
    struct pollfd pfd {g_infer_fd, POLLIN, 0};
    int ready = poll(&pfd, 1, (kInferLimitS + 1) * 1000);
    if (ready <= 0) {
      timed_out = ready == 0;
      if (ready < 0 && errno == EINTR) continue;
      break;
    }
    char buf[4096];
    ssize_t n = read(g_infer_fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(g_infer_fd);
  g_infer_fd = -1;
  // The launcher may signal no other process (not even its helper, whose pid could be reused once it
  // is reaped): a helper that outlives its alarm is left to the sandbox, which kills it with the run.
  int status = 0;
  while (waitpid(g_infer_pid, &status, timed_out ? WNOHANG : 0) < 0 && errno == EINTR) {
  }
  g_infer_pid = -1;
  if (shape_fn == nullptr && dtype_fn == nullptr) return warnings;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) warnings.push_back(line);
  }
  if (timed_out) {
    warnings.push_back("InferShape/InferDataType of op " + req.op + " did not finish within " +
                       std::to_string(kInferLimitS) + " s");
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    warnings.push_back("InferShape/InferDataType of op " + req.op + " did not finish within " +
                       std::to_string(kInferLimitS) + " s");
  } else if (WIFSIGNALED(status)) {
    warnings.push_back("InferShape/InferDataType of op " + req.op + " crashed (signal " +
                       std::to_string(WTERMSIG(status)) + ")");
  }
  return warnings;
}

// ---------------------------------------------------------------------------------------------
// The boundary (npukb_boundary.h), entered before the candidate's shared object is loaded.

int g_phase_fd = -1;             // the harness's phase channel, until the candidate's code is loaded
int g_census_fd = -1;            // /proc/self/stat, opened before the boundary: the thread count
void* g_candidate = nullptr;     // dlopen handle of the candidate's shared object

// One line on the phase channel (the harness trusts only what arrives before "candidate").
void phase_report(const std::string& line) {
  if (g_phase_fd < 0) return;
  const std::string text = line + "\n";
  ssize_t ignored = write(g_phase_fd, text.data(), text.size());
  (void)ignored;
}

// The launcher's own failure to confine itself: the harness's, never the candidate's.
[[noreturn]] void boundary_failure(const std::string& why) {
  phase_report("failed: launcher: " + why);
  std::fprintf(stderr, "npukb launcher: cannot confine itself: %s\n", why.c_str());
  std::fflush(stderr);
  _exit(125);
}

// The directories of every library loaded now (the candidate's dependencies are among them).
std::vector<std::string> library_dirs() {
  std::vector<std::string> dirs;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* out = static_cast<std::vector<std::string>*>(data);
        const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        const auto slash = name.rfind('/');
        if (!name.empty() && name[0] == '/' && slash != std::string::npos && slash > 0) {
          const std::string dir = name.substr(0, slash);
          if (std::find(out->begin(), out->end(), dir) == out->end()) out->push_back(dir);
        }
        return 0;
      },
      &dirs);
  return dirs;
}

// Rights in the run's directory: files and directories, no symbolic links, devices, FIFOs or sockets
// (a link planted there could make the harness read a file outside when it collects the outputs).
constexpr std::uint64_t kRunDirRights =
    NB_LL_ALL & ~(NB_LL_EXECUTE | (1ULL << 6) /* MAKE_CHAR */ | (1ULL << 9) /* MAKE_SOCK */ |
                  (1ULL << 10) /* MAKE_FIFO */ | (1ULL << 11) /* MAKE_BLOCK */ | (1ULL << 12) /* MAKE_SYM */);

// Landlock (read: the loaded libraries' directories, the linker cache, the candidate's shared object
// and `dir`; read-write as kRunDirRights when `writable`), no capabilities, the candidate seccomp
// allow-list (signals: to itself only). Returns what was applied, e.g. "landlock+seccomp". Every
// descriptor but 0-2 and `keep` (and the phase channel, still open) is closed first.
std::string enter_boundary(const std::string& dir, bool writable, const std::string& so_path,
                           std::initializer_list<int> keep) {
  char err[600];
  for (int fd = 3; fd < 1024; ++fd) {        // descriptors this process inherited or opened for itself
    bool kept = fd == g_phase_fd || fd == g_census_fd;
    for (int k : keep) kept |= fd == k;
    if (!kept) close(fd);
  }
  std::string applied;
  if (nb_landlock_abi() >= 1) {
    struct nb_landlock ll;
    if (nb_landlock_begin(&ll, 0, err, sizeof err) != 0) boundary_failure(err);
    for (const auto& dir : library_dirs()) {
      if (nb_landlock_allow(&ll, dir.c_str(), NB_LL_READ, err, sizeof err) != 0) boundary_failure(err);
    }
    if (nb_landlock_allow(&ll, "/etc/ld.so.cache", NB_LL_READ, err, sizeof err) != 0 ||
        nb_landlock_allow(&ll, so_path.c_str(), NB_LL_READ, err, sizeof err) != 0 ||
        nb_landlock_allow(&ll, dir.c_str(), writable ? kRunDirRights : NB_LL_READ, err, sizeof err) != 0 ||
        nb_landlock_enforce(&ll, err, sizeof err) != 0) {
      boundary_failure(err);
    }
    applied = "landlock";
  }
  if (nb_drop_capabilities(err, sizeof err) != 0) boundary_failure(err);
  if (nb_seccomp_candidate(static_cast<long>(getpid()), -1, err, sizeof err) == 0) {
    applied += applied.empty() ? "seccomp" : "+seccomp";
  } else if (errno != EINVAL && errno != ENOSYS) {   // a kernel without seccomp filters: not applied
    boundary_failure(err);
  }
  return applied;
}

// Loads the candidate's shared object (its static initialisers run now, inside the boundary) and
// looks up the kernel trampolines and the raw-access cost hook.
void load_candidate(const std::string& so_path) {
  g_phase = "loading the candidate's code (its static initialisers)";
  if (!g_infer_child) {
    phase_report("candidate");
    if (g_phase_fd >= 0) close(g_phase_fd);
    g_phase_fd = -1;
  }
  g_candidate = dlopen(so_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (g_candidate == nullptr) {
    const char* why = dlerror();
    launch_error(std::string("cannot load the candidate's code: ") + (why != nullptr ? why : "?"));
  }
  struct link_map* map = nullptr;
  if (dlinfo(g_candidate, RTLD_DI_LINKMAP, &map) == 0 && map != nullptr) {
    npukb::rt::set_kernel_image(static_cast<std::uintptr_t>(map->l_addr));   // call-site offsets: into the .so
  }
  npukb_entry = reinterpret_cast<EntryFn>(dlsym(g_candidate, "npukb_entry"));
  npukb_entry_aic = reinterpret_cast<EntryFn>(dlsym(g_candidate, "npukb_entry_aic"));
  npukb_kernel_type = reinterpret_cast<KernelTypeFn>(dlsym(g_candidate, "npukb_kernel_type"));
  npukb::rt::g_guard.kernel_raw_access =
      reinterpret_cast<npukb::rt::RawAccessFn>(dlsym(g_candidate, "npukb_kernel_raw_access"));
  npukb::rt::g_guard.kernel_scalar_block =
      reinterpret_cast<npukb::rt::ScalarBlockFn>(dlsym(g_candidate, "npukb_kernel_scalar_block"));
}

// Threads of this process now, from the /proc/self/stat opened before the boundary (-1: unknown).
int thread_count() {
  if (g_census_fd < 0) return -1;
  char buf[1024];
  const ssize_t n = pread(g_census_fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return -2;
  buf[n] = '\0';
  const char* p = std::strrchr(buf, ')');
  if (p == nullptr) return -2;
  std::istringstream fields(p + 1);
  std::string field;
  for (int i = 0; i < 18 && (fields >> field); ++i) {
  }
  return field.empty() ? -2 : std::atoi(field.c_str());
}

// The candidate may not keep threads of its own: `expected` threads of the launcher's at `when`.
void census(int expected, const char* when) {
  const int n = thread_count();
  if (n == -1) return;            // no /proc here: not checked (docs/security.md)
  if (n == -2) launch_error("the launcher's thread census was tampered with (its /proc/self/stat descriptor)");
  if (n > expected) {
    launch_error("the candidate's code left " + std::to_string(n - expected) + " thread(s) of its own running " + when +
                 ": host code and kernels may not start threads");
  }
}

// The InferShape helper: forked before the boundary (the launcher can create no process after it),
// it confines itself like the launcher, loads the candidate and runs the launch's host steps up to
// InferShape/InferDataType, then writes its findings to the pipe and ends. A problem in a step ends
// it quietly (the launcher meets the same problem and reports it).
template <typename Steps>
void start_infer_child(const std::string& dir, const std::string& so_path, Steps&& steps) {
  int fds[2];
  if (pipe(fds) != 0) return;
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (child == 0) {
    g_infer_child = true;
    close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) _exit(0);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
      close(null);
    }
    if (g_phase_fd >= 0) close(g_phase_fd);
    g_phase_fd = -1;
    if (g_census_fd >= 0) close(g_census_fd);
    g_census_fd = -1;
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
    alarm(kInferLimitS);
    enter_boundary(dir, false, so_path, {fds[1]});
    load_candidate(so_path);
    const std::string out = steps();
    for (std::size_t done = 0; done < out.size();) {
      const ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  g_infer_pid = child;
  g_infer_fd = fds[0];
}

// ---------------------------------------------------------------------------------------------
// Run: `<exe> run <dir>` as a sequence of steps over one Launch. A step that finds a problem ends
// the process (request_error / launch_error write result.json and exit), so every step may rely on
// the earlier ones having succeeded.

struct Launch {
  // Members in the order the steps fill them; all live until run() returns (the kernel reads args,
  // the host functions' io points into host_data and their contexts to platform and compile_info).
  std::string dir;
  Request req;
  std::unique_ptr<ops::OpDef> def;
  gert::NpukbIoTable io;
  std::vector<std::vector<std::uint8_t>> host_data;   // data of the ValueDepend inputs
  const gert::NpukbOpImpl* impl = nullptr;            // what IMPL_OP_* registered for the op, if anything
  ops::InferShapeKernelFunc infer_shape_fn = nullptr;
  ops::InferDataTypeKernelFunc infer_dtype_fn = nullptr;
  ops::TilingKernelFunc tiling_fn = nullptr;
  fe::PlatFormInfos platform;
  std::unique_ptr<void, void (*)(void*)> compile_info{nullptr, [](void*) {}};
  std::vector<std::uint8_t> tiling_buf;
  std::size_t tiling_bytes = 0;                       // what TilingFunc wrote into tiling_buf
  uint32_t block_dim = 0;
  std::size_t workspace_bytes = 0;
  bool needs_aic = false, needs_aiv = false;          // the passes (cube, vector) the kernel type runs
  std::vector<std::uint8_t*> args;                    // the kernel's arguments (g_args)
  uint32_t n_aic = 0, n_aiv = 0;                      // blocks per core type
  std::size_t column = 0;                             // the OpDef's DataType column of the case

  explicit Launch(const std::string& run_dir) : dir(run_dir) {}

  void parse_request();
  void check_entries();
  void check_opdef();
  void describe_tensors();
  void load_value_depend_inputs();
  void describe_attrs();
  void find_host_functions();
  void check_inference();
  void run_tiling_parse();
  void run_tiling();
  void choose_cores();
  void record_tiling();
  void allocate_memory();
  void set_up_blocks();
  void schedule_blocks();
  void write_outputs();
  void estimate_cost();
  void finish();
};

// Reads <dir>/request.txt and seeds the poison (before any candidate code is loaded); hands on req.
void Launch::parse_request() {
  g_out_dir = dir;
  g_page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  result_set("status", json_str("request_error"));
  g_phase = "request parsing";
  req = read_request(dir + "/request.txt");
  set_poison_seed(req.poison_seed);
}

// Checks that the loaded build has a kernel (not a describe build); hands on nothing.
void Launch::check_entries() {
  if (npukb_entry == nullptr && npukb_entry_aic == nullptr) {
    request_error("this build has no kernel entry (describe build)");
  }
}

// Instantiates the OpDef registered for the op type and checks the request's parameters against it;
// hands on def.
void Launch::check_opdef() {
  g_phase = "OpDef construction";
  auto& ops_reg = ops::NpukbOpRegistry();
  auto it = ops_reg.find(req.op);
  if (it == ops_reg.end()) {
    std::string known;
    for (auto& kv : ops_reg) known += (known.empty() ? "" : ", ") + kv.first;
    launch_error("no OpDef registered for op type '" + req.op + "': the host code must define class " + req.op +
                 " : public OpDef and call OP_ADD(" + req.op + ")" + (known.empty() ? "" : " (registered: " + known + ")"));
  }
  def.reset(it->second(req.op.c_str()));
  column = check_params(*def, req.params);
}

// Gives io one tensor (shape, dtype, size; no data) per present input and output instance and sets
// each tensor's byte size in req; hands on io and the sizes.
void Launch::describe_tensors() {
  io.node_name = req.op;
  io.node_type = req.op;
  for (auto& p : req.params) {
    auto& all = p.role == "input" ? io.inputs : io.outputs;
    auto& ir = p.role == "input" ? io.input_ir : io.output_ir;
    ir.emplace_back();
    if (p.absent) continue;
    for (auto& t : p.tensors) {
      t.bytes = tensor_bytes(p, t);
      gert::StorageShape shape;
      for (auto d : t.shape) {
        shape.MutableOriginShape().AppendDim(d);
        shape.MutableStorageShape().AppendDim(d);
      }
      ir.back().push_back(static_cast<int>(all.size()));
      all.emplace_back();
      all.back().NpukbSet(shape, p.ge, nullptr, t.bytes);
    }
  }
}

// Input data on the host (GetInputTensor(i)->GetData<T>()): as in CANN, only for inputs the OpDef
// declares ValueDepend; every other input has its shape and dtype only (GetData() is nullptr). Reads
// those inputs into host_data and points their io tensors at it; hands on io with that data.
void Launch::load_value_depend_inputs() {
  std::size_t inst = 0, ir = 0;
  const auto& declared_inputs = def->NpukbInputs();
  for (auto& p : req.params) {
    if (p.role != "input") continue;
    const bool value_depend = ir < declared_inputs.size() && declared_inputs[ir].NpukbValueDepend() != ops::IGNORE;
    ++ir;
    if (p.absent) continue;
    for (auto& t : p.tensors) {
      gert::Tensor& tensor = io.inputs[inst++];
      if (!value_depend) continue;
      host_data.emplace_back(t.bytes);
      read_file_into(dir + "/" + t.file, host_data.back().data(), t.bytes);
      tensor.NpukbSet(tensor.GetShape(), p.ge, host_data.back().data(), t.bytes);
    }
  }
}

// Gives io every attribute the OpDef declares (the task's value, else the default) and refuses one the
// OpDef does not declare; hands on io complete.
void Launch::describe_attrs() {
  for (const auto& decl : def->NpukbAttrs()) {
    const AttrReq* given = nullptr;
    for (const auto& a : req.attrs) {
      if (a.name == decl.NpukbName()) given = &a;
    }
    append_attr(io.attrs, decl, given);
  }
  // private attributes (OpImplRegisterV2::PrivateAttr) follow the IR attributes, with their values
  auto& impls = gert::NpukbOpImplRegistry();
  auto found = impls.find(req.op);
  if (found != impls.end()) {
    for (const auto& pa : found->second.private_attrs) {
      if (pa.kind == 'I' || pa.kind == 'F') {
        std::size_t elem = pa.kind == 'I' ? 8 : 4, count = pa.value.size() / elem;
        std::vector<std::uint8_t> buf(sizeof(gert::ContinuousVector) + pa.value.size() + 8, 0);
        auto* cv = reinterpret_cast<gert::ContinuousVector*>(buf.data());
        cv->Init(count);
        cv->SetSize(count);
        if (!pa.value.empty()) std::memcpy(cv->MutableData(), pa.value.data(), pa.value.size());
        io.attrs.NpukbAppend(buf.data(), buf.size());
      } else {
        io.attrs.NpukbAppend(pa.value.data(), pa.value.size());
      }
    }
  }
  for (const auto& a : req.attrs) {
    bool known = false;
    for (const auto& decl : def->NpukbAttrs()) known |= decl.NpukbName() == a.name;
    if (!known) {
      launch_error("the task passes attribute '" + a.name + "' but OpDef " + req.op +
                   " declares no such attribute: add this->Attr(\"" + a.name + "\")");
    }
  }
}

// Op implementation functions: the OpDef's own, else those registered with IMPL_OP_*. Refuses an op
// without a TilingFunc; hands on impl, infer_shape_fn, infer_dtype_fn and tiling_fn.
void Launch::find_host_functions() {
  {
    auto& impls = gert::NpukbOpImplRegistry();
    auto found = impls.find(req.op);
    if (found != impls.end()) impl = &found->second;
  }
  infer_shape_fn = def->NpukbInferShape();
  if (infer_shape_fn == nullptr && impl != nullptr) infer_shape_fn = impl->infer_shape;
  infer_dtype_fn = def->NpukbInferDataType();
  if (infer_dtype_fn == nullptr && impl != nullptr) infer_dtype_fn = impl->infer_datatype;
  tiling_fn = def->NpukbAICore().NpukbTiling();
  if (tiling_fn == nullptr && impl != nullptr) tiling_fn = impl->tiling;
  if (tiling_fn == nullptr) {
    launch_error("op " + req.op + " registers no tiling function: call this->AICore().SetTiling(TilingFunc) in the "
                 "OpDef or IMPL_OP_OPTILING(" + req.op + ").Tiling(TilingFunc)");
  }
}

// Collects what InferShape / InferDataType get wrong against the task's outputs from the helper process
// (infer_warnings) and records it as host_warnings in the result; hands on nothing.
void Launch::check_inference() {
  g_phase = "checking InferShape / InferDataType";
  std::string json = "[";
  for (const auto& w : infer_warnings(infer_shape_fn, infer_dtype_fn, req)) {
    json += (json.size() > 1 ? ", " : "") + json_str(w);
  }
  result_set("host_warnings", json + "]");
}

// TilingParse (TilingPrepare) runs once before tiling, with a fresh compile-info object; hands on
// compile_info (empty when the op registers no TilingParse).
void Launch::run_tiling_parse() {
  if (impl == nullptr || impl->tiling_parse == nullptr) return;
  g_phase = "the host TilingParse function";
  compile_info = std::unique_ptr<void, void (*)(void*)>(impl->create_compile_info(), impl->delete_compile_info);
  gert::TilingParseContext parse_ctx(&io, "{}", compile_info.get(), &platform);
  ge::graphStatus parsed;
  try {
    parsed = impl->tiling_parse(&parse_ctx);
  } catch (const std::exception& e) {
    launch_error(std::string("TilingParse threw an exception: ") + e.what());
  } catch (...) {
    launch_error("TilingParse threw an exception");
  }
  if (parsed != ge::GRAPH_SUCCESS) {
    launch_error("TilingParse (IMPL_OP_OPTILING(" + req.op + ").TilingParse<...>) returned failure (status " +
                 std::to_string(parsed) + ")");
  }
}

// Runs TilingFunc into the raw tiling buffer and refuses a failure or an overflow; hands on
// tiling_buf, tiling_bytes, block_dim, workspace_bytes and g_tiling_key.
void Launch::run_tiling() {
  tiling_buf.assign(kTilingCapacity, 0);
  gert::TilingData raw(tiling_buf.data(), tiling_buf.size());
  gert::TilingContext ctx(&io, &raw, &platform, compile_info.get());
  g_phase = "the host TilingFunc (input data reaches it only for inputs the OpDef declares ValueDepend; "
            "GetInputTensor(i)->GetData() is nullptr for the others)";
  ge::graphStatus status;
  try {
    status = tiling_fn(&ctx);
  } catch (const std::exception& e) {
    launch_error(std::string("TilingFunc threw an exception: ") + e.what());
  } catch (...) {
    launch_error("TilingFunc threw an exception");
  }
  if (status != ge::GRAPH_SUCCESS) {
    launch_error("TilingFunc returned failure (status " + std::to_string(status) + ")");
  }
  if (optiling::NpukbTilingOverflowBytes() > 0 || raw.NpukbOverflowed()) {
    launch_error("tiling data of " + std::to_string(optiling::NpukbTilingOverflowBytes()) +
                 " bytes does not fit the raw tiling buffer (capacity " + std::to_string(raw.GetCapacity()) + " bytes)");
  }
  if (raw.GetDataSize() > raw.GetCapacity()) {
    launch_error("tiling data size " + std::to_string(raw.GetDataSize()) + " exceeds the raw tiling buffer capacity " +
                 std::to_string(raw.GetCapacity()) + " bytes");
  }
  tiling_bytes = raw.GetDataSize();
  block_dim = ctx.GetBlockDim();
  g_tiling_key = ctx.GetTilingKey();
  for (auto w : ctx.NpukbWorkspace()) workspace_bytes += w;
}

// Derives the kernel type from the tiling key and checks it, and blockDim, against the 910B and this
// build; hands on g_kernel_type, g_waves, needs_aic and needs_aiv.
void Launch::choose_cores() {
  g_kernel_type = npukb_kernel_type != nullptr ? npukb_kernel_type(g_tiling_key) : K_AIV_ONLY;
  const bool cube_cores = g_kernel_type == K_AIC_ONLY || g_kernel_type == K_MIX_AIC_1_0 ||
                          g_kernel_type == K_MIX_AIC_1_1 || g_kernel_type == K_MIX_AIC_1_2;
  if (g_kernel_type >= K_AICORE) {
    launch_error("kernel type " + std::to_string(g_kernel_type) + " (KERNEL_TYPE_AICORE/VECTORCORE/MIX_AICORE/"
                 "MIX_VECTOR_CORE) is not available on the Ascend 910B: use KERNEL_TYPE_AIV_ONLY, AIC_ONLY or MIX_AIC_1_2");
  }
  // A vector kernel's blockDim is logical, as on the device: blocks beyond the 40 vector cores run in
  // later waves on cores that finished (kMaxLogicalBlocks is this simulator's limit: one thread each).
  const uint32_t max_dim = static_cast<uint32_t>(cube_cores ? npukb::kCubeCores : kMaxLogicalBlocks);
  if (block_dim == 0 || block_dim > max_dim) {
    launch_error("blockDim " + std::to_string(block_dim) + " outside 1.." + std::to_string(max_dim) +
                 (block_dim == 0 ? std::string(" (TilingFunc must call context->SetBlockDim(n) with n >= 1)")
                  : cube_cores ? " (a kernel that uses the cube unit launches blockDim AI cores: the Ascend 910B3 has "
                                 "20 AI cube cores, each with 2 vector cores)"
                               : std::string(" (the simulator runs at most 256 logical blocks; the Ascend 910B3 "
                                             "has 40 vector cores)")));
  }
  g_waves = !cube_cores && block_dim > static_cast<uint32_t>(npukb::kVectorCores);
  needs_aic = cube_cores;
  needs_aiv = !cube_cores || g_kernel_type == K_MIX_AIC_1_1 || g_kernel_type == K_MIX_AIC_1_2;
  if ((needs_aic && npukb_entry_aic == nullptr) || (needs_aiv && npukb_entry == nullptr)) {
    request_error("the build lacks the " + std::string(needs_aic && npukb_entry_aic == nullptr ? "cube (AIC)" : "vector (AIV)") +
                  " pass that kernel type " + std::to_string(g_kernel_type) + " needs (a simulator build error)");
  }
}

// Records the accepted tiling (blockDim, key, workspace, the tiling bytes and their first 4 KiB in hex)
// in the result; hands on nothing.
void Launch::record_tiling() {
  result_set("block_dim", std::to_string(block_dim));
  result_set("tiling_key", std::to_string(g_tiling_key));
  result_set("workspace_bytes", std::to_string(workspace_bytes));
  result_set("tiling_bytes", std::to_string(tiling_bytes));
  std::string hex;
  static const char* digits = "0123456789abcdef";
  for (std::size_t i = 0; i < std::min<std::size_t>(tiling_bytes, 4096); ++i) {
    hex += digits[tiling_buf[i] >> 4];
    hex += digits[tiling_buf[i] & 15];
  }
  result_set("tiling_hex", json_str(hex));
}

// Builds the GM buffers (inputs read in, aliased outputs sharing their input's buffer, the others,
// the workspace too, poisoned; the tiling bytes copied) and the kernel arguments; hands on args
// (g_args, each param's gm pointers) and the sorted GM regions.
void Launch::allocate_memory() {
  g_phase = "GM setup";
  // The OpDef's declaration of an output (the ascend910b configuration's where it declares one).
  const ops::OpAICoreConfig* cfg = nullptr;
  config_910b(*def, &cfg);
  auto output_decl = [&](const std::string& name) -> const ops::OpParamDef* {
    const ops::OpParamDef* found = nullptr;
    for (const auto& q : def->NpukbOutputs()) {
      if (q.NpukbName() == name) found = &q;
    }
    if (cfg != nullptr) {
      for (const auto& q : cfg->NpukbOutputs()) {
        ops::ScalarVar probe;
        if (q.NpukbName() == name && q.NpukbInitValue(0, &probe)) found = &q;
      }
    }
    return found;
  };
  std::map<std::string, ParamReq*> by_name;  // inputs, for aliases (an in-place output may share its input's name)
  for (auto& p : req.params) {
    if (p.role == "input") by_name[p.name] = &p;
  }
  for (auto& p : req.params) {
    if (p.absent) {
      p.arg = nullptr;
    } else {
      for (std::size_t j = 0; j < p.tensors.size(); ++j) {
        TensorReq& t = p.tensors[j];
        std::string label = p.tensors.size() > 1 || p.ptype == "DYNAMIC" ? p.name + "[" + std::to_string(j) + "]" : p.name;
        if (p.role == "output" && !p.alias.empty()) {
          auto a = by_name.find(p.alias);
          if (a == by_name.end() || a->second->role != "input" || a->second->tensors.size() != p.tensors.size() ||
              a->second->tensors[j].bytes != t.bytes) {
            request_error("output " + p.name + " aliases input " + p.alias + " of a different size");
          }
          t.gm = a->second->tensors[j].gm;
          continue;
        }
        t.gm = gm_alloc(t.bytes, label);
        // inputs, and outputs whose buffer the binding initialised (else they stay poisoned)
        if (p.role == "input" || t.file != "-") read_file_into(dir + "/" + t.file, t.gm, t.bytes);
        ops::ScalarVar init;
        if (p.role == "output" && output_decl(p.name) != nullptr && output_decl(p.name)->NpukbInitValue(column, &init)) {
          fill_init_value(t.gm, t.bytes, init);
        }
      }
      p.arg = p.ptype == "DYNAMIC" ? build_list_descriptor(p) : p.tensors.at(0).gm;
    }
    args.push_back(p.arg);
  }
  g_workspace = gm_alloc(workspace_bytes, "workspace");
  std::uint8_t* tiling_gm = gm_alloc(tiling_bytes, "tiling");
  std::memcpy(tiling_gm, tiling_buf.data(), tiling_bytes);
  args.push_back(g_workspace);
  args.push_back(tiling_gm);
  g_args = args.data();
  sort_regions();
}

// Blocks: the AIC blocks first, then the AIV blocks (AIV i belongs to AI core i / aiv_per_core). Sets
// up each block's guarded state and the guarded GM ranges and records the cores in the result; hands
// on g_blocks, n_aic and n_aiv.
void Launch::set_up_blocks() {
  g_phase = "the kernel launch";
  result_set("status", json_str("running"));
  g_aiv_per_core = g_kernel_type == K_MIX_AIC_1_2 ? 2 : 1;
  n_aic = needs_aic ? block_dim : 0;
  n_aiv = needs_aiv ? block_dim * (needs_aic ? g_aiv_per_core : 1) : 0;
  g_mixed = n_aic > 0 && n_aiv > 0;
  g_blocks.resize(n_aic + n_aiv);
  npukb::rt::create_private_state(static_cast<int>(n_aic + n_aiv), static_cast<int>(g_regions.size()));
  {
    std::vector<npukb::rt::GmRange> ranges;
    for (const auto& r : g_regions) ranges.push_back({reinterpret_cast<std::uintptr_t>(r.start), r.size});
    npukb::rt::set_gm_ranges(ranges.data(), static_cast<int>(ranges.size()));
  }
  for (uint32_t b = 0; b < n_aic + n_aiv; ++b) g_blocks[b].state = &npukb::rt::g_guard.blocks[b];
  for (uint32_t b = 0; b < n_aic + n_aiv; ++b) {
    npukb::BlockState& st = *g_blocks[b].state;
    st.kernel_type = g_kernel_type;
    st.block_num = static_cast<int>(block_dim);
    if (b < n_aic) {
      st.core_type = npukb::CORE_AIC;
      st.block_idx = st.core_idx = static_cast<int>(b);
      st.sub_block_idx = 0;
      st.sub_block_num = g_mixed ? g_aiv_per_core : 1;
    } else {
      const int i = static_cast<int>(b - n_aic);
      st.core_type = npukb::CORE_AIV;
      st.block_idx = i;
      st.core_idx = g_mixed ? i / g_aiv_per_core : i;
      st.sub_block_idx = g_mixed ? i % g_aiv_per_core : 0;
      st.sub_block_num = g_mixed ? g_aiv_per_core : 1;
    }
  }
  result_set("kernel_type", std::to_string(g_kernel_type));
  result_set("cores", "{\"aic\": " + std::to_string(n_aic) + ", \"aiv\": " + std::to_string(n_aiv) + "}");
}

// Runs every block as a thread under the cooperative scheduler and waits until all have finished;
// hands on the blocks' final state (cycles, GM traffic) and the kernel's writes in GM.
void Launch::schedule_blocks() {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kBlockStackBytes);
  for (uint32_t b = 0; b < g_blocks.size(); ++b) {
    if (pthread_create(&g_blocks[b].thread, &attr, block_main, reinterpret_cast<void*>(static_cast<std::intptr_t>(b))) != 0) {
      launch_error("cannot start the thread of block " + std::to_string(b));
    }
  }
  // From here on no thread or process can be created, in any thread (the blocks wait for their turn).
  char err[300];
  if (nb_seccomp_no_clone(err, sizeof err) != 0 && errno != EINVAL && errno != ENOSYS) {
    launch_error(std::string("a thread of the candidate's escaped the launcher's seccomp filter: ") + err);
  }
  census(1 + static_cast<int>(g_blocks.size()), "when the kernel started");
  {
    std::unique_lock<std::mutex> lk(g_sched_mutex);
    g_started = true;
    // Order of a mixed launch: vector cores first for even poison seeds, cube cores first for odd ones,
    // so that a harness running a candidate with two seeds sees a missing cross-core flag in either
    // direction (the consumer runs before its producer in one of the runs).
    g_current = (g_mixed && (req.poison_seed & 1) == 0) ? static_cast<int>(n_aic) : 0;
    g_sched_cv.notify_all();
    g_sched_cv.wait(lk, [] { return g_current == -2; });
  }
  for (auto& s : g_blocks) pthread_join(s.thread, nullptr);
}

// Writes every output, and every input as the kernel left it, to a .bin file and lists the files in
// the result; hands on nothing.
void Launch::write_outputs() {
  g_phase = "writing the results";
  std::string outputs = "[", inputs_after = "[";
  for (std::size_t i = 0; i < req.params.size(); ++i) {
    auto& p = req.params[i];
    std::string files = "[";
    for (std::size_t j = 0; j < p.tensors.size() && !p.absent; ++j) {
      std::string name = (p.role == "output" ? "out_" : "after_") + std::to_string(i) + "_" + std::to_string(j) + ".bin";
      write_file(dir + "/" + name, p.tensors[j].gm, p.tensors[j].bytes);
      files += (j ? ", " : "") + json_str(name);
    }
    files += "]";
    std::string entry = "{\"name\": " + json_str(p.name) + ", \"files\": " + files + "}";
    std::string& target = p.role == "output" ? outputs : inputs_after;
    target += (target.size() > 1 ? ", " : "") + entry;
  }
  result_set("outputs", outputs + "]");
  result_set("inputs_after", inputs_after + "]");
}

// Cost estimate: the slowest block (or vector core, when blocks run in waves) against the GM traffic
// at HBM bandwidth, plus the launch overhead; records time_us and the cost breakdown in the result.
void Launch::estimate_cost() {
  double slowest = 0.0;
  int slowest_block = 0;
  std::uint64_t gm_bytes = 0, gm_read = 0, gm_write = 0, raw_gm = 0, raw_ub = 0, raw_local = 0, scalar_blocks = 0;
  for (std::size_t b = 0; b < g_blocks.size(); ++b) {
    const auto& s = *g_blocks[b].state;
    gm_bytes += s.gm_read_bytes + s.gm_write_bytes;
    gm_read += s.gm_read_bytes;
    gm_write += s.gm_write_bytes;
    raw_gm += s.raw_gm_accesses;
    raw_ub += s.raw_ub_accesses;
    raw_local += s.raw_local_accesses;
    scalar_blocks += s.scalar_blocks;
    if (s.finish_cycles > slowest) {
      slowest = s.finish_cycles;
      slowest_block = static_cast<int>(b);
    }
  }
  if (g_waves) {
    // Block b runs on vector core b % cores, after the blocks of the earlier waves on that core.
    std::vector<double> per_core(static_cast<std::size_t>(npukb::kVectorCores), 0.0);
    for (std::size_t b = 0; b < g_blocks.size(); ++b)
      per_core[b % per_core.size()] += g_blocks[b].state->finish_cycles;
    slowest = *std::max_element(per_core.begin(), per_core.end());
  }
  double core_us = slowest / (npukb::kClockGhz * 1e3);
  double hbm_us = static_cast<double>(gm_bytes) / kHbmBytesPerUs;
  double time_us = std::max(core_us, hbm_us) + kLaunchOverheadUs;
  static const char* pipe_names[] = {"S", "V", "MTE2", "MTE3", "MTE1", "M", "FIX"};
  std::string pipes = "{";
  for (int k = 0; k < npukb::PIPE_ID_COUNT; ++k) {
    pipes += std::string(k ? ", " : "") + json_str(pipe_names[k]) + ": " +
             json_num(g_blocks[slowest_block].state->pipe_cycles[k]);
  }
  pipes += "}";
  result_set("time_us", json_num(time_us));
  result_set("cost", "{\"core_us\": " + json_num(core_us) + ", \"hbm_us\": " + json_num(hbm_us) +
                         ", \"launch_overhead_us\": " + json_num(kLaunchOverheadUs) + ", \"slowest_block\": " +
                         std::to_string(slowest_block) + ", \"slowest_block_cycles\": " + json_num(slowest) +
                         ", \"gm_bytes\": " + std::to_string(gm_bytes) + ", \"gm_read_bytes\": " +
                         std::to_string(gm_read) + ", \"gm_write_bytes\": " + std::to_string(gm_write) +
                         ", \"raw_gm_accesses\": " + std::to_string(raw_gm) + ", \"raw_ub_accesses\": " +
                         std::to_string(raw_ub) + ", \"raw_local_accesses\": " + std::to_string(raw_local) +
                         ", \"scalar_blocks\": " + std::to_string(scalar_blocks) +
                         ", \"slowest_block_scalar_blocks\": " +
                         std::to_string(g_blocks[slowest_block].state->scalar_blocks) + ", \"pipe_cycles\": " + pipes +
                         "}");
}

// Marks the run ok and writes result.json; the last step.
void Launch::finish() {
  result_set("status", json_str("ok"));
  result_set("message", json_str(""));
  write_result();
}

// Wall seconds of the launcher's own phases (from main on), for the evaluation-speed profile
// (benchmarks/eval_speed.py): informational, never part of a verdict or of the cost estimate.
struct PhaseTimes {
  double last = 0.0;
  std::string json;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  void mark(const char* name) {
    const double t = now();
    json += std::string(json.empty() ? "{" : ", ") + json_str(name) + ": " + json_num(t - last);
    last = t;
  }
  // The phases, this process's CPU seconds (all its threads) and its peak resident memory.
  void record() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double cpu = static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                       static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
    result_set("phase_seconds", (json.empty() ? std::string("{") : json) + "}");
    result_set("launcher_cpu_seconds", json_num(cpu));
    result_set("launcher_peak_rss_kb", std::to_string(u.ru_maxrss));
  }
};
PhaseTimes g_times;

[[noreturn]] void run(const std::string& dir, const std::string& so_path) {
  Launch launch(dir);
  launch.parse_request();               // the harness's request: its errors are the harness's
  g_census_fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  start_infer_child(dir, so_path, [&launch]() {
    launch.check_entries();
    launch.check_opdef();
    launch.describe_tensors();
    launch.load_value_depend_inputs();
    launch.describe_attrs();
    launch.find_host_functions();
    return infer_findings(launch.infer_shape_fn, launch.infer_dtype_fn, launch.io, launch.req);
  });
  g_phase = "confining the launcher";
  result_set("boundary", json_str(enter_boundary(dir, true, so_path, {g_infer_fd})));
  g_times.mark("setup");
  load_candidate(so_path);              // from here on, everything is the candidate's
  g_times.mark("load");
  launch.check_entries();
  launch.check_opdef();
  launch.describe_tensors();
  launch.load_value_depend_inputs();
  launch.describe_attrs();
  launch.find_host_functions();
  launch.check_inference();
  launch.run_tiling_parse();
  launch.run_tiling();
  census(1, "when its host code returned");
  g_times.mark("host");
  launch.choose_cores();
  launch.record_tiling();
  launch.allocate_memory();
  launch.set_up_blocks();
  g_times.mark("memory");
  launch.schedule_blocks();
  g_times.mark("kernel");
  launch.write_outputs();
  g_times.mark("write");
  launch.estimate_cost();
  g_times.record();
  launch.finish();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);                             // no candidate destructor runs after the result is written
}

// `describe <so>`: the registered tiling classes and OpDefs of a host-only build.
[[noreturn]] void describe_build(const std::string& so_path) {
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) == nullptr) boundary_failure("getcwd failed");
  g_phase = "confining the launcher";
  enter_boundary(cwd, false, so_path, {});    // the host code may read its build folder, not write it
  load_candidate(so_path);
  g_phase = "describing the registered tiling classes and OpDefs";
  describe();
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  _exit(0);
}

// The harness's phase channel (npukb-confine passes it as fd 3 and names it in NPUKB_PHASE_FD).
void open_phase_channel() {
  const char* env = std::getenv("NPUKB_PHASE_FD");
  if (env != nullptr) {
    const int fd = std::atoi(env);
    if (fd > 2 && fcntl(fd, F_GETFD) >= 0) {
      g_phase_fd = fd;
      fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
  }
  unsetenv("NPUKB_PHASE_FD");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// runtime.h

namespace npukb {

BlockState& block() {
  const int b = g_running_block.load(std::memory_order_relaxed);
  return b >= 0 ? npukb::rt::g_guard.blocks[b] : g_host_state;
}

std::uint64_t launch_tiling_key() { return g_tiling_key; }

void warning(const char* api, const std::string& what, const char* file, int line) {
  const int b = g_running_block.load();
  const int idx = b >= 0 && b < static_cast<int>(g_blocks.size()) ? g_blocks[b].state->block_idx : b;
  // Walking the stack costs microseconds and a warning may come from a hot loop: each return address
  // into the caller is walked from a bounded number of times (an inlined API has one per call site).
  constexpr int kWalksPerReturnAddress = 64;
  static std::map<const void*, int> walks;
  {
    std::lock_guard<std::mutex> lk(g_warn_mutex);
    if (g_warnings.size() >= kMaxWarnings) return;
    if (file == nullptr && ++walks[__builtin_return_address(0)] > kWalksPerReturnAddress) return;
  }
  const std::string loc = where(file, line);
  std::lock_guard<std::mutex> lk(g_warn_mutex);
  const std::string key = loc.empty() ? std::string(api ? api : "") + what : loc;
  for (const auto& seen : g_warned_at) {
    if (seen == key) return;
  }
  if (g_warnings.size() >= kMaxWarnings) return;
  g_warned_at.push_back(key);
  g_warnings.push_back(std::string(api ? api : "") + ": " + what + " (block " + std::to_string(idx) +
                       (loc.empty() ? "" : ", " + loc) + ")");
}

[[noreturn]] void violation(const char* api, const std::string& what, const char* file, int line) {
  static std::atomic<bool> once{false};
  if (once.exchange(true)) {
    for (;;) pause();
  }
  int b = g_running_block.load();
  const std::string loc = where(file, line);
  const int idx = b >= 0 && b < static_cast<int>(g_blocks.size()) ? g_blocks[b].state->block_idx : b;
  const char* core = b >= 0 && b < static_cast<int>(g_blocks.size()) && g_blocks[b].state->core_type == CORE_AIC ? "AIC" : "AIV";
  result_set("violation", "{\"api\": " + json_str(api ? api : "") + ", \"message\": " + json_str(what) +
                              ", \"block\": " + std::to_string(idx) + ", \"core\": " + json_str(core) +
                              ", \"file\": " + json_str(file ? file : "") + ", \"line\": " + std::to_string(line) +
                              (file == nullptr ? ", \"at\": " + json_str(loc) : std::string()) + "}");
  std::string message = std::string(api ? api : "") + ": " + what;
  if (b >= 0) message += " (" + block_name(b) + (loc.empty() ? "" : ", " + loc) + ")";
  else if (!loc.empty()) message += " (" + loc + ")";
  fail(kExitViolation, "violation", message);
}

// The GM ranges come from the guarded copy (guarded_state.h; same order as g_regions, which has the
// names): a kernel that overwrites the launcher's heap cannot widen what it may touch. The limits of
// an access (rt::gm_limit: reads to the 512-byte allocation granule, writes to the last 32-byte
// block) are the same for the API checks and for raw pointer accesses.

// Index of the GM range starting exactly at `start`, -1 when none.
int range_starting_at(const void* start) {
  const auto p = reinterpret_cast<std::uintptr_t>(start);
  const rt::GmRange* first = rt::g_guard.gm;
  const rt::GmRange* last = first + rt::g_guard.gm_count;
  const rt::GmRange* it = std::lower_bound(first, last, p, [](const rt::GmRange& r, std::uintptr_t a) { return r.start < a; });
  return it != last && it->start == p ? static_cast<int>(it - first) : -1;
}

const std::string& range_name(int i) {
  static const std::string unnamed = "?";
  return i >= 0 && i < static_cast<int>(g_regions.size()) ? g_regions[static_cast<std::size_t>(i)].name : unnamed;
}

const void* gm_home(const void* addr) {
  const auto p = reinterpret_cast<std::uintptr_t>(addr);
  const rt::GmRange* first = rt::g_guard.gm;
  const rt::GmRange* last = first + rt::g_guard.gm_count;
  const rt::GmRange* it = std::upper_bound(first, last, p, [](std::uintptr_t a, const rt::GmRange& r) { return a < r.start; });
  if (it == first) return nullptr;
  const rt::GmRange& r = *(it - 1);
  return p - r.start < std::max<std::size_t>(rt::gm_limit(r.size, true), 1) ? reinterpret_cast<const void*>(r.start)
                                                                           : nullptr;
}

void check_gm_home(const void* home, const void* addr, std::size_t bytes, bool write, const char* api, const char* file,
                   int line) {
  const int i = home != nullptr ? range_starting_at(home) : -1;
  if (i < 0) return check_gm(addr, bytes, write, api, file, line);
  const rt::GmRange& r = rt::g_guard.gm[i];
  const auto p = reinterpret_cast<std::uintptr_t>(addr);
  const char* verb = write ? "write" : "read";
  if (p < r.start) {
    violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes starts " +
                       std::to_string(r.start - p) + " bytes before '" + range_name(i) + "'", file, line);
  }
  const std::size_t off = p - r.start, limit = rt::gm_limit(r.size, write);
  if (off <= limit && bytes <= limit - off) return;
  violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at byte offset " +
                     std::to_string(off) + " of '" + range_name(i) + "' runs past its end (" + std::to_string(r.size) +
                     " bytes)", file, line);
}

void check_gm(const void* addr, std::size_t bytes, bool write, const char* api, const char* file, int line) {
  const auto a = reinterpret_cast<std::uintptr_t>(addr);
  int near = -1;
  if (rt::find_gm_range(a, bytes, write, &near) >= 0) return;
  const char* verb = write ? "write" : "read";
  if (near >= 0) {
    const rt::GmRange& r = rt::g_guard.gm[near];
    if (a >= r.start) {
      violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes at byte offset " +
                         std::to_string(a - r.start) + " of '" + range_name(near) + "' runs past its end (" +
                         std::to_string(r.size) + " bytes)", file, line);
    }
    violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) + " bytes starts " +
                       std::to_string(r.start - a) + " bytes before '" + range_name(near) + "'", file, line);
  }
  violation(api, "GM " + std::string(verb) + " of " + std::to_string(bytes) +
                     " bytes at an address outside every tensor handed to the kernel", file, line);
}

void wait_gm(const volatile std::int32_t* addr, std::int32_t lo, std::int32_t hi, const char* api, const char* file,
             int line) {
  if (g_waves) {
    violation(api, "blockDim " + std::to_string(g_blocks.size()) + " exceeds the " +
                       std::to_string(npukb::kVectorCores) + " vector cores: the blocks of a later wave only start "
                       "when a core is free, so a wait for another block hangs on the device", file, line);
  }
  std::unique_lock<std::mutex> lk(g_sched_mutex);
  int b = g_running_block.load();
  if (b < 0 || (*addr >= lo && *addr <= hi)) return;
  BlockSlot& s = g_blocks[b];
  s.run = BlockRun::WAIT_GM;
  s.wait_addr = addr;
  s.wait_lo = lo;
  s.wait_hi = hi;
  s.wait_api = api;
  s.wait_where = where(file, line);
  g_running_block = -1;
  schedule_next_locked(b);
  wait_turn_locked(lk, b);
}

void sync_all(bool same_type_only, const char* file, int line) {
  if (g_waves) {
    violation("SyncAll", "blockDim " + std::to_string(g_blocks.size()) + " exceeds the " +
                             std::to_string(npukb::kVectorCores) + " vector cores: the blocks of a later wave only "
                             "start when a core is free, so a barrier over all blocks hangs on the device",
              file, line);
  }
  std::unique_lock<std::mutex> lk(g_sched_mutex);
  int b = g_running_block.load();
  if (b < 0) return;
  BlockSlot& s = g_blocks[b];
  s.run = BlockRun::BARRIER;
  s.barrier_group = same_type_only ? 1 : 0;
  s.wait_where = where(file, line);
  g_running_block = -1;
  schedule_next_locked(b);
  wait_turn_locked(lk, b);
}

namespace {
// The blocks whose sets form one round of flag `mode` for setter `b`, and the blocks a round reaches.
void flag_group(int mode, int b, std::vector<int>& members, std::vector<int>& receivers) {
  const int n = static_cast<int>(g_blocks.size());
  const npukb::BlockState& me = *g_blocks[b].state;
  members.clear();
  receivers.clear();
  if (mode == 0) {                       // every core of the setter's type
    for (int k = 0; k < n; ++k) if (g_blocks[k].state->core_type == me.core_type) members.push_back(k);
    receivers = members;
  } else if (mode == 1) {                // the vector cores of one AI core
    if (g_mixed) {
      for (int k = 0; k < n; ++k) {
        const auto& st = *g_blocks[k].state;
        if (st.core_type == npukb::CORE_AIV && st.core_idx == me.core_idx) members.push_back(k);
      }
    } else {                             // vector-only launch: blocks 2i and 2i+1 share an AI core
      for (int k = (b / 2) * 2; k < std::min(n, (b / 2) * 2 + 2); ++k) members.push_back(k);
    }
    receivers = members;
  } else {                               // mode 2: cube core <-> its vector cores
    if (!g_mixed) return;
    for (int k = 0; k < n; ++k) {
      const auto& st = *g_blocks[k].state;
      if (st.core_idx != me.core_idx) continue;
      if (st.core_type == npukb::CORE_AIV) (me.core_type == npukb::CORE_AIC ? receivers : members).push_back(k);
      else if (me.core_type == npukb::CORE_AIV) receivers.push_back(k);
    }
    if (me.core_type == npukb::CORE_AIC) members.push_back(b);
  }
}
}  // namespace

void cross_core_set_flag(int mode, int flag_id, double time, const char* file, int line) {
  std::lock_guard<std::mutex> lk(g_sched_mutex);
  int b = g_running_block.load();
  if (b < 0) return;
  if (flag_id < 0 || flag_id >= kFlagIds) {
    violation("CrossCoreSetFlag", "flag id " + std::to_string(flag_id) + " outside 0..15", file, line);
  }
  if (mode < 0 || mode > 2) violation("CrossCoreSetFlag", "mode " + std::to_string(mode) + " outside 0..2", file, line);
  std::vector<int> members, receivers;
  flag_group(mode, b, members, receivers);
  if (members.empty() || receivers.empty()) return;     // e.g. mode 2 in a launch without the other core type
  g_blocks[b].flag_pending[mode][flag_id].push_back(time);
  for (;;) {
    double t = 0.0;
    for (int k : members) {
      if (g_blocks[k].flag_pending[mode][flag_id].empty()) return;
      t = std::max(t, g_blocks[k].flag_pending[mode][flag_id].front());
    }
    for (int k : members) g_blocks[k].flag_pending[mode][flag_id].pop_front();
    for (int k : receivers) {
      auto& sem = g_blocks[k].flag_sem[flag_id];
      if (static_cast<int>(sem.size()) >= kFlagCounterMax) {
        violation("CrossCoreSetFlag", "flag " + std::to_string(flag_id) + " of " + block_name(k) + " already holds " +
                  std::to_string(kFlagCounterMax) + " sets that no CrossCoreWaitFlag consumed (the hardware counter "
                  "overflows; pair every set with a wait)", file, line);
      }
      sem.push_back(t);
    }
  }
}

double cross_core_wait_flag(int flag_id, const char* file, int line) {
  std::unique_lock<std::mutex> lk(g_sched_mutex);
  int b = g_running_block.load();
  if (b < 0) return 0.0;
  if (flag_id < 0 || flag_id >= kFlagIds) {
    lk.unlock();
    violation("CrossCoreWaitFlag", "flag id " + std::to_string(flag_id) + " outside 0..15", file, line);
  }
  BlockSlot& s = g_blocks[b];
  if (s.flag_sem[flag_id].empty()) {
    s.run = BlockRun::WAIT_FLAG;
    s.wait_flag = flag_id;
    s.wait_where = where(file, line);
    g_running_block = -1;
    schedule_next_locked(b);
    wait_turn_locked(lk, b);
  }
  const double t = s.flag_sem[flag_id].front();
  s.flag_sem[flag_id].pop_front();
  return t;
}

void wait_for(const std::function<bool()>& ready, const std::string& what, const char* file, int line, bool yield) {
  std::unique_lock<std::mutex> lk(g_sched_mutex);
  int b = g_running_block.load();
  if (b < 0) return;
  if (!yield && ready()) return;
  BlockSlot& s = g_blocks[b];
  s.run = BlockRun::WAIT_COND;
  s.wait_cond = ready;
  s.wait_what = what;
  s.wait_where = where(file, line);
  g_running_block = -1;
  schedule_next_locked(b);
  wait_turn_locked(lk, b);
}

std::uint8_t* lazy_buffer(std::uint8_t** slot, std::size_t bytes) {
  if (*slot != nullptr) return *slot;
  int b = g_running_block.load();
  if (b < 0) violation("TPipe::InitBuffer", "on-chip memory requested outside a kernel block", nullptr, 0);
  *slot = block_memory(g_blocks[b], bytes);
  return *slot;
}

BlockState* cube_partner() {
  int b = g_running_block.load();
  if (!g_mixed || b < 0) return nullptr;
  const BlockState& me = *g_blocks[b].state;
  if (me.core_type != CORE_AIV) return nullptr;
  return g_blocks[me.core_idx].state;   // AIC blocks come first: AIC i is g_blocks[i]
}

std::uint8_t* sys_workspace() { return g_workspace; }

void kernel_log(const std::string& text) {
  std::lock_guard<std::mutex> lk(g_log_mutex);
  if (g_log.size() >= kLogLimit) {
    g_log_truncated = true;
    return;
  }
  int b = g_running_block.load();
  std::string line = (b >= 0 ? "[block " + std::to_string(b) + "] " : std::string()) + text;
  if (g_log.size() + line.size() > kLogLimit) {
    line.resize(kLogLimit - g_log.size());
    g_log_truncated = true;
  }
  g_log += line;
}

}  // namespace npukb

int main(int argc, char** argv) {
  g_times.last = PhaseTimes::now();
  install_crash_handlers();
  open_phase_channel();
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "describe" && argc > 2) describe_build(argv[2]);
  if (mode == "run" && argc > 3) run(argv[2], argv[3]);
  std::fprintf(stderr, "usage: %s describe <so> | run <dir> <so>\n", argv[0]);
  return kExitRequest;
}
