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
inline void PipeBarrier() { sim::barrier(sim::pipe_of(pipe), pipe == PIPE_ALL); }

template <bool isAIVOnly = true>
inline void SyncAll() { NPUKB_CALLER;
  sim::barrier(npukb::PIPE_ID_S, true);
  npukb::sync_all(isAIVOnly, file, line);
}
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<std::int32_t>&, const LocalTensor<std::int32_t>&, const std::int32_t usedCores = 0) { NPUKB_CALLER;
  (void)usedCores;
  sim::barrier(npukb::PIPE_ID_S, true);
  npukb::sync_all(isAIVOnly, file, line);
}

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
