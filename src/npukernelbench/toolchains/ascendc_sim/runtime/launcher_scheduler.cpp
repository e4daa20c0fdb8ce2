// launcher_scheduler.cpp -- the blocks and their cooperative scheduler: exactly one block runs at a
// time and yields only at SyncAll or a cross-core wait, so runs are deterministic; a barrier or a wait
// nobody can satisfy is a hang. Also the kernel-side API of it (runtime.h: block(), SyncAll, the
// cross-core flags, waits on GM words and conditions). Part of the ascendc-sim clean-room simulator
// (launcher_internal.h lists the launcher's files).
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "call_site.h"
#include "launcher_internal.h"

namespace npukb {
namespace launcher {

std::vector<BlockSlot> g_blocks;
std::mutex g_sched_mutex;
std::condition_variable g_sched_cv;
int g_current = -1;                 // block allowed to run; -2 when all finished
bool g_started = false;
std::uint8_t** g_args = nullptr;
npukb::BlockState g_host_state;     // what block() returns outside kernel threads
int g_kernel_type = K_AIV_ONLY;
bool g_mixed = false;               // AIC and AIV blocks in one launch
bool g_waves = false;               // more vector blocks than vector cores: they run in waves
int g_aiv_per_core = 1;
std::atomic<int>& g_running_block = npukb::rt::g_guard.running_block;
std::uint64_t g_tiling_key = 0;


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

}  // namespace launcher

// ---------------------------------------------------------------------------------------------
// runtime.h

using namespace launcher;

BlockState& block() {
  const int b = g_running_block.load(std::memory_order_relaxed);
  return b >= 0 ? npukb::rt::g_guard.blocks[b] : g_host_state;
}

std::uint64_t launch_tiling_key() { return g_tiling_key; }
void wait_gm(const volatile std::int32_t* addr, std::int32_t lo, std::int32_t hi, const char* api, const char* file,
             int line) {
  if (g_waves) {
    violation(api, "blockDim " + std::to_string(g_blocks.size()) + " exceeds the " +
                       std::to_string(npukb::vector_cores()) + " vector cores: the blocks of a later wave only start "
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
                             std::to_string(npukb::vector_cores()) + " vector cores: the blocks of a later wave only "
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
}  // namespace npukb
