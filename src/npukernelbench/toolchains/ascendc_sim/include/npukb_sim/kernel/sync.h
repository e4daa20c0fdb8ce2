// npukb_sim/kernel/sync.h -- synchronisation control: SetFlag / WaitFlag, PipeBarrier, SyncAll,
// CrossCoreSetFlag / CrossCoreWaitFlag and the legacy pipe_barrier built-in. Clean-room part of
// ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- pipe synchronisation (cost model only; the simulator executes in program order) -------------
namespace sim {
inline npukb::PipeId pipe_of(pipe_t p) {
  switch (p) {
    case PIPE_V: return npukb::PIPE_ID_V;
    case PIPE_MTE2: return npukb::PIPE_ID_MTE2;
    case PIPE_MTE3: return npukb::PIPE_ID_MTE3;
    case PIPE_MTE1: return npukb::PIPE_ID_MTE1;
    case PIPE_M: return npukb::PIPE_ID_M;
    case PIPE_FIX: return npukb::PIPE_ID_FIX;
    default: return npukb::PIPE_ID_S;
  }
}
inline void event_pipes(HardEvent e, npukb::PipeId& from, npukb::PipeId& to) {
  using P = npukb::PipeId;
  switch (e) {
    case HardEvent::MTE2_V: from = npukb::PIPE_ID_MTE2; to = npukb::PIPE_ID_V; break;
    case HardEvent::V_MTE2: from = npukb::PIPE_ID_V; to = npukb::PIPE_ID_MTE2; break;
    case HardEvent::MTE3_V: from = npukb::PIPE_ID_MTE3; to = npukb::PIPE_ID_V; break;
    case HardEvent::V_MTE3: from = npukb::PIPE_ID_V; to = npukb::PIPE_ID_MTE3; break;
    case HardEvent::MTE3_MTE2: from = npukb::PIPE_ID_MTE3; to = npukb::PIPE_ID_MTE2; break;
    case HardEvent::MTE2_MTE3: from = npukb::PIPE_ID_MTE2; to = npukb::PIPE_ID_MTE3; break;
    case HardEvent::S_V: from = npukb::PIPE_ID_S; to = npukb::PIPE_ID_V; break;
    case HardEvent::V_S: from = npukb::PIPE_ID_V; to = npukb::PIPE_ID_S; break;
    case HardEvent::S_MTE2: from = npukb::PIPE_ID_S; to = npukb::PIPE_ID_MTE2; break;
    case HardEvent::MTE2_S: from = npukb::PIPE_ID_MTE2; to = npukb::PIPE_ID_S; break;
    case HardEvent::S_MTE3: from = npukb::PIPE_ID_S; to = npukb::PIPE_ID_MTE3; break;
    case HardEvent::MTE3_S: from = npukb::PIPE_ID_MTE3; to = npukb::PIPE_ID_S; break;
    case HardEvent::V_V: from = npukb::PIPE_ID_V; to = npukb::PIPE_ID_V; break;
    case HardEvent::MTE2_MTE1: from = npukb::PIPE_ID_MTE2; to = npukb::PIPE_ID_MTE1; break;
    case HardEvent::MTE1_MTE2: from = npukb::PIPE_ID_MTE1; to = npukb::PIPE_ID_MTE2; break;
    case HardEvent::MTE1_M: from = npukb::PIPE_ID_MTE1; to = npukb::PIPE_ID_M; break;
    case HardEvent::M_MTE1: from = npukb::PIPE_ID_M; to = npukb::PIPE_ID_MTE1; break;
    case HardEvent::M_FIX: from = npukb::PIPE_ID_M; to = npukb::PIPE_ID_FIX; break;
    case HardEvent::FIX_M: from = npukb::PIPE_ID_FIX; to = npukb::PIPE_ID_M; break;
    case HardEvent::MTE2_M: from = npukb::PIPE_ID_MTE2; to = npukb::PIPE_ID_M; break;
    case HardEvent::M_MTE2: from = npukb::PIPE_ID_M; to = npukb::PIPE_ID_MTE2; break;
    case HardEvent::MTE2_FIX: from = npukb::PIPE_ID_MTE2; to = npukb::PIPE_ID_FIX; break;
    case HardEvent::FIX_MTE2: from = npukb::PIPE_ID_FIX; to = npukb::PIPE_ID_MTE2; break;
    case HardEvent::MTE1_FIX: from = npukb::PIPE_ID_MTE1; to = npukb::PIPE_ID_FIX; break;
    case HardEvent::FIX_MTE1: from = npukb::PIPE_ID_FIX; to = npukb::PIPE_ID_MTE1; break;
    case HardEvent::FIX_FIX: from = npukb::PIPE_ID_FIX; to = npukb::PIPE_ID_FIX; break;
    case HardEvent::FIX_S: from = npukb::PIPE_ID_FIX; to = npukb::PIPE_ID_S; break;
    case HardEvent::M_S: from = npukb::PIPE_ID_M; to = npukb::PIPE_ID_S; break;
    case HardEvent::FIX_MTE3: from = npukb::PIPE_ID_FIX; to = npukb::PIPE_ID_MTE3; break;
    case HardEvent::MTE3_MTE1: from = npukb::PIPE_ID_MTE3; to = npukb::PIPE_ID_MTE1; break;
    case HardEvent::MTE1_MTE3: from = npukb::PIPE_ID_MTE1; to = npukb::PIPE_ID_MTE3; break;
    case HardEvent::MTE1_V: from = npukb::PIPE_ID_MTE1; to = npukb::PIPE_ID_V; break;
    case HardEvent::V_MTE1: from = npukb::PIPE_ID_V; to = npukb::PIPE_ID_MTE1; break;
    case HardEvent::M_V: from = npukb::PIPE_ID_M; to = npukb::PIPE_ID_V; break;
    case HardEvent::V_M: from = npukb::PIPE_ID_V; to = npukb::PIPE_ID_M; break;
    default: from = P::PIPE_ID_S; to = P::PIPE_ID_S; break;
  }
}
inline void set_flag(HardEvent e, int id, const char* file, int line) {
  if (id < 0 || id >= npukb::kern::kEventIds) npukb::violation("SetFlag", "event id " + npukb::kern::num(id) + " is outside [0, 7]", file, line);
  npukb::kern::KState& s = npukb::kern::state();
  // A second SetFlag before the WaitFlag that consumes the first is undefined by the documentation;
  // hardware-checked kernels do it, so it is a kernel warning (each set is still counted, and so waited for).
  const bool again = s.flag_count[static_cast<int>(e)][id] > 0;
  if (again) {
    npukb::warning("SetFlag", "event ID " + npukb::kern::num(id) + " of this HardEvent is already set: SetFlag twice "
                   "without a WaitFlag between is undefined on the device", file, line);
  }
  npukb::PipeId from, to;
  event_pipes(e, from, to);
  s.issue += npukb::kern::kIssueCycles;
  const double t = from == npukb::PIPE_ID_S ? s.issue : std::max(s.pipe[from], s.issue);
  s.flag_time[static_cast<int>(e)][id] = t;
  s.flag_count[static_cast<int>(e)][id] += 1;
}
inline void wait_flag(HardEvent e, int id, const char* file, int line) {
  if (id < 0 || id >= npukb::kern::kEventIds) npukb::violation("WaitFlag", "event id " + npukb::kern::num(id) + " is outside [0, 7]", file, line);
  npukb::kern::KState& s = npukb::kern::state();
  if (s.flag_count[static_cast<int>(e)][id] <= 0) {
    npukb::violation("WaitFlag", "hang: WaitFlag(event id " + npukb::kern::num(id) + ") without a matching SetFlag of the same HardEvent", file, line);
  }
  s.flag_count[static_cast<int>(e)][id] -= 1;
  npukb::PipeId from, to;
  event_pipes(e, from, to);
  const double t = s.flag_time[static_cast<int>(e)][id];
  if (to == npukb::PIPE_ID_S) s.issue = std::max(s.issue, t);
  else s.pipe[to] = std::max(s.pipe[to], t);
}
inline void barrier(npukb::PipeId p, bool all) {
  npukb::kern::KState& s = npukb::kern::state();
  if (all) {
    double t = s.issue;
    for (int i = 0; i < npukb::PIPE_ID_COUNT; ++i) t = std::max(t, s.pipe[i]);
    s.issue = t;
    for (int i = 0; i < npukb::PIPE_ID_COUNT; ++i) s.pipe[i] = t;
  } else {
    s.pipe[p] = std::max(s.pipe[p], s.issue);
  }
  npukb::kern::publish(s);
}
}  // namespace sim

template <HardEvent event>
inline void SetFlag(std::int32_t eventID) { NPUKB_CALLER; sim::set_flag(event, eventID, file, line); }
template <HardEvent event>
inline void WaitFlag(std::int32_t eventID) { NPUKB_CALLER; sim::wait_flag(event, eventID, file, line); }
template <pipe_t pipe>
inline void PipeBarrier() {
  static_assert(pipe != PIPE_S, "PipeBarrier: the scalar pipe is always in order (PIPE_S is not a barrier pipe)");
  sim::barrier(sim::pipe_of(pipe), pipe == PIPE_ALL);
}

// DataSyncBarrier<arg0>: later instructions wait for the earlier memory accesses of GM (DDR), UB, or both
// (ALL; never L1 / L0). SEQ waits for nothing the cost model tracks.
enum class MemDsbT : std::uint8_t { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
inline void DataSyncBarrier() {
  npukb::kern::KState& s = npukb::kern::state();
  double t = s.issue;
  const auto upto = [&](npukb::PipeId p) { t = std::max(t, s.pipe[p]); };
  if (arg0 == MemDsbT::ALL || arg0 == MemDsbT::DDR) { upto(npukb::PIPE_ID_MTE2); upto(npukb::PIPE_ID_MTE3); }
  if (arg0 == MemDsbT::ALL || arg0 == MemDsbT::UB) {
    upto(npukb::PIPE_ID_MTE2); upto(npukb::PIPE_ID_MTE3); upto(npukb::PIPE_ID_V);
  }
  s.issue = t;
  npukb::kern::publish(s);
}

// ---- inter-block synchronisation -----------------------------------------------------------------
namespace sim {
// The GM word of a protocol slot (32-byte slots of int32), read and written by the scalar unit.
inline std::int32_t* gm_slot(const GlobalTensor<std::int32_t>& gm, std::uint64_t slot, bool write, const char* api,
                             const char* file, int line) {
  std::int32_t* p = gm.GetPhyAddr() + slot * 8;
  gm.check_access(p, sizeof(std::int32_t), write, api, file, line);
  npukb::kern::scalar_gm_access(sizeof(std::int32_t), write);
  return p;
}
inline void require_ub_workspace(const LocalTensor<std::int32_t>& ub, std::uint64_t bytes, const char* api,
                                 const char* file, int line) {
  const sim::LocalLoc& l = ub.loc();
  if (l.base == nullptr || l.hw != Hardware::UB) {
    npukb::violation(api, "ubWorkspace must be a UB tensor (VECIN, VECCALC or VECOUT)", file, line);
  }
  if (static_cast<std::uint64_t>(ub.GetSize()) * sizeof(std::int32_t) < bytes) {
    npukb::violation(api, "ubWorkspace holds " + npukb::kern::num(static_cast<long long>(ub.GetSize()) * 4) +
                     " bytes; it needs at least " + npukb::kern::num(static_cast<long long>(bytes)), file, line);
  }
}
inline void require_aiv(const char* api, const char* file, int line) {
  if (npukb::block().core_type != npukb::CORE_AIV) {
    npukb::violation(api, "synchronises vector cores (AIV) only", file, line);
  }
}
}  // namespace sim

// SyncAll's config (the hard form): the pipes that send the trigger and wait for it, each PIPE_MTE2,
// PIPE_MTE3 or PIPE_ALL. Only the default (PIPE_ALL both) is supported on the Atlas A2/A3 training series.
struct SyncAllConfig {
  pipe_t triggerPipe;
  pipe_t waitPipe;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};
namespace sim {
constexpr bool sync_all_pipe(pipe_t p) { return p == PIPE_MTE2 || p == PIPE_MTE3 || p == PIPE_ALL; }
}  // namespace sim

// Hard SyncAll: a barrier of the launch's vector cores (isAIVOnly) or of every core of a mixed launch.
// In a vector-only kernel isAIVOnly = false waits for cube cores that do not exist: it hangs.
template <bool isAIVOnly = true>
inline void SyncAll() { NPUKB_CALLER;
  if (!isAIVOnly && npukb::block().kernel_type == 0) {
    npukb::violation("SyncAll", "hang: SyncAll<false>() in a vector-only kernel waits for cube cores that never "
                     "arrive (a vector-only kernel uses SyncAll<true>())", file, line);
  }
  sim::barrier(npukb::PIPE_ID_S, true);
  npukb::sync_all(isAIVOnly, file, line);
}
// The documented config parameter (template <bool isAIVOnly = true, const SyncAllConfig& config =
// DEFAULT_SYNC_ALL_CONFIG>) as a second template: SyncAll<b>() and SyncAll<b, cfg>() call what the one
// template would (a kernel calling SyncAll<b>() instantiates no reference template parameter).
template <bool isAIVOnly, const SyncAllConfig& config>
inline void SyncAll() { NPUKB_CALLER;
  static_assert(sim::sync_all_pipe(config.triggerPipe) && sim::sync_all_pipe(config.waitPipe),
                "SyncAll: config.triggerPipe and config.waitPipe are PIPE_MTE2, PIPE_MTE3 or PIPE_ALL");
  if constexpr (config.triggerPipe != PIPE_ALL || config.waitPipe != PIPE_ALL) {
    npukb::violation("SyncAll", "a SyncAllConfig other than DEFAULT_SYNC_ALL_CONFIG ({PIPE_ALL, PIPE_ALL}) is not "
                     "supported on the Atlas A2/A3 training series", file, line);
  }
  SyncAll<isAIVOnly>();
}
// Soft SyncAll over GM: each of the first usedCores vector blocks (every block for 0) writes its round
// into its 32-byte slot of gmWorkspace and polls the others' until all reached the round. gmWorkspace
// holds GetBlockNum() slots initialised to 0; ubWorkspace at least GetBlockNum() * 32 bytes.
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<std::int32_t>& gmWorkspace, const LocalTensor<std::int32_t>& ubWorkspace,
                    const std::int32_t usedCores = 0) { NPUKB_CALLER;
  static_assert(isAIVOnly, "SyncAll(gmWorkspace, ubWorkspace, usedCores): the soft barrier synchronises vector cores only");
  constexpr const char* api = "SyncAll";
  sim::require_aiv(api, file, line);
  const npukb::BlockState& blk = npukb::block();
  const std::int64_t cores = static_cast<std::int64_t>(blk.block_num) * blk.sub_block_num;
  if (usedCores < 0 || usedCores > cores) {
    npukb::violation(api, "usedCores " + npukb::kern::num(usedCores) + " exceeds the " + npukb::kern::num(cores) +
                     " vector blocks of the launch (GetBlockNum() * GetTaskRatio())", file, line);
  }
  const std::int64_t members = usedCores == 0 ? cores : usedCores;
  if (blk.block_idx >= members) {
    npukb::violation(api, "block " + npukb::kern::num(blk.block_idx) + " is not among the " + npukb::kern::num(members) +
                     " blocks usedCores synchronises", file, line);
  }
  sim::require_ub_workspace(ubWorkspace, static_cast<std::uint64_t>(blk.block_num) * 32, api, file, line);
  npukb::kern::KState& s = npukb::kern::state();
  std::int32_t* mine = sim::gm_slot(gmWorkspace, static_cast<std::uint64_t>(blk.block_idx), false, api, file, line);
  if (*mine != s.soft_sync_rounds) {
    npukb::violation(api, "this block's gmWorkspace slot holds " + npukb::kern::num(*mine) + ", not " +
                     npukb::kern::num(s.soft_sync_rounds) + ": gmWorkspace must be initialised to 0 before the first "
                     "SyncAll (and left to SyncAll afterwards)", file, line);
  }
  sim::barrier(npukb::PIPE_ID_S, true);
  const std::int32_t round = ++s.soft_sync_rounds;
  *sim::gm_slot(gmWorkspace, static_cast<std::uint64_t>(blk.block_idx), true, api, file, line) = round;
  // A slot holds this round or, once its block has passed, the next: any other value (a workspace that
  // was not zeroed) is not a signal.
  for (std::int64_t k = 0; k < members; ++k) {
    npukb::wait_gm(sim::gm_slot(gmWorkspace, static_cast<std::uint64_t>(k), false, api, file, line), round, round + 1,
                   api, file, line);
  }
}

// IBSet / IBWait: block-to-block events in GM. IBSet sets the flag of (blockIdx, eventID); IBWait waits
// until it is set. The flag is the int32 at slot eventID * cores + blockIdx of gmWorkspace (cores =
// GetBlockNum(), x2 in a mixed launch), which starts at 0. Vector cores only.
namespace sim {
inline std::int32_t* ib_flag(const GlobalTensor<std::int32_t>& gm, const LocalTensor<std::int32_t>& ub, bool aiv_only,
                             std::int32_t blockIdx, std::int32_t eventID, bool write, const char* api, const char* file,
                             int line) {
  require_aiv(api, file, line);
  require_ub_workspace(ub, 32, api, file, line);
  const npukb::BlockState& blk = npukb::block();
  const std::int64_t cores = static_cast<std::int64_t>(blk.block_num) * (aiv_only ? 1 : 2);
  if (blockIdx < 0 || blockIdx >= cores) {
    npukb::violation(api, "blockIdx " + npukb::kern::num(blockIdx) + " is outside [0, " + npukb::kern::num(cores - 1) +
                     "]", file, line);
  }
  if (eventID < 0) npukb::violation(api, "eventID " + npukb::kern::num(eventID) + " is negative", file, line);
  return gm_slot(gm, static_cast<std::uint64_t>(eventID) * static_cast<std::uint64_t>(cores) + blockIdx, write, api,
                 file, line);
}
}  // namespace sim
template <bool isAIVOnly = true>
inline void IBSet(const GlobalTensor<std::int32_t>& gmWorkspace, const LocalTensor<std::int32_t>& ubWorkspace,
                  std::int32_t blockIdx, std::int32_t eventID) { NPUKB_CALLER;
  sim::barrier(npukb::PIPE_ID_S, true);
  *sim::ib_flag(gmWorkspace, ubWorkspace, isAIVOnly, blockIdx, eventID, true, "IBSet", file, line) = 1;
}
template <bool isAIVOnly = true>
inline void IBWait(const GlobalTensor<std::int32_t>& gmWorkspace, const LocalTensor<std::int32_t>& ubWorkspace,
                   std::int32_t blockIdx, std::int32_t eventID) { NPUKB_CALLER;
  std::int32_t* flag = sim::ib_flag(gmWorkspace, ubWorkspace, isAIVOnly, blockIdx, eventID, false, "IBWait", file, line);
  npukb::wait_gm(flag, 1, 1, "IBWait", file, line);
  sim::barrier(npukb::PIPE_ID_S, true);
}

// Deterministic accumulation order: block i's WaitPreBlock waits until block i-1 called NotifyNextBlock as
// often (block 0 waits for the last block's previous round), so the blocks pass in index order every
// round. Slot i (32 bytes) of gmWorkspace counts the notifications block i received; InitDetermineCompute-
// Workspace zeroes it (it need not be zero before).
namespace sim {
inline void determine_checks(const GlobalTensor<std::int32_t>& gm, const LocalTensor<std::int32_t>& ub, const char* api,
                             const char* file, int line) {
  require_aiv(api, file, line);
  const npukb::BlockState& blk = npukb::block();
  require_ub_workspace(ub, static_cast<std::uint64_t>(blk.block_num) * 32 + 32, api, file, line);
  gm.check_access(gm.GetPhyAddr(), static_cast<std::size_t>(blk.block_num) * 32, false, api, file, line);
}
}  // namespace sim
inline void InitDetermineComputeWorkspace(GlobalTensor<std::int32_t>& gmWorkspace, LocalTensor<std::int32_t>& ubWorkspace) {
  NPUKB_CALLER;
  sim::determine_checks(gmWorkspace, ubWorkspace, "InitDetermineComputeWorkspace", file, line);
  const npukb::BlockState& blk = npukb::block();
  *sim::gm_slot(gmWorkspace, static_cast<std::uint64_t>(blk.block_idx), true, "InitDetermineComputeWorkspace", file,
                line) = 0;
  npukb::kern::state().determine_waits = 0;
  sim::barrier(npukb::PIPE_ID_S, true);
  npukb::sync_all(true, file, line);   // every block's slot is zero before anyone notifies
}
inline void NotifyNextBlock(GlobalTensor<std::int32_t>& gmWorkspace, LocalTensor<std::int32_t>& ubWorkspace) {
  NPUKB_CALLER;
  sim::determine_checks(gmWorkspace, ubWorkspace, "NotifyNextBlock", file, line);
  const npukb::BlockState& blk = npukb::block();
  sim::barrier(npukb::PIPE_ID_S, true);
  std::int32_t* next = sim::gm_slot(gmWorkspace, static_cast<std::uint64_t>((blk.block_idx + 1) % blk.block_num), true,
                                    "NotifyNextBlock", file, line);
  *next += 1;
}
inline void WaitPreBlock(GlobalTensor<std::int32_t>& gmWorkspace, LocalTensor<std::int32_t>& ubWorkspace) {
  NPUKB_CALLER;
  sim::determine_checks(gmWorkspace, ubWorkspace, "WaitPreBlock", file, line);
  const npukb::BlockState& blk = npukb::block();
  std::int32_t& waits = npukb::kern::state().determine_waits;
  const std::int32_t need = blk.block_idx == 0 ? waits : waits + 1;
  npukb::wait_gm(sim::gm_slot(gmWorkspace, static_cast<std::uint64_t>(blk.block_idx), false, "WaitPreBlock", file, line),
                 need, 0x7fffffff, "WaitPreBlock", file, line);
  ++waits;
  sim::barrier(npukb::PIPE_ID_S, true);
}

// Task-level Early-Start of SuperKernels: on the 910B they compile and have no effect (documented); a
// single operator launch has no neighbouring task either way.
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false>
inline void SetNextTaskStart() {}
template <bool FORCE = false>
inline void WaitPreTaskEnd() {}

// Cross-core flags (semantics in runtime.h / docs/simulator.md); the set carries the time of `pipe`.
template <std::uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(std::uint16_t flagId) { NPUKB_CALLER;
  sim::barrier(sim::pipe_of(pipe), false);
  npukb::kern::KState& s = npukb::kern::state();
  npukb::cross_core_set_flag(modeId, flagId, std::max(s.issue, s.pipe[sim::pipe_of(pipe)]), file, line);
}
template <std::uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(std::uint16_t flagId) { NPUKB_CALLER;
  const double t = npukb::cross_core_wait_flag(flagId, file, line);
  npukb::kern::KState& s = npukb::kern::state();
  s.issue = std::max(s.issue, t);
  s.pipe[sim::pipe_of(pipe)] = std::max(s.pipe[sim::pipe_of(pipe)], t);
  npukb::kern::publish(s);
}

}  // namespace AscendC

// Legacy device built-ins.
inline void pipe_barrier(pipe_t p) { AscendC::sim::barrier(AscendC::sim::pipe_of(p), p == PIPE_ALL); }
