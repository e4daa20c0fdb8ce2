// lib/matmul/matmul_server.h -- where a Matmul request's cube time goes. In a mixed kernel the vector
// cores (AIV) drive the Matmul objects and the cube core (AIC) of their AI core serves them; the
// simulator computes each request on the calling core and charges its cube time to that AIC (two AIVs
// share it), the AIV waiting for the result at the synchronous calls or at the Wait* calls. In a
// cube-only kernel the AIC computes and is charged itself. Also REGIST_MATMUL_OBJ's registration.
// Clean-room part of ascendc-sim.
#pragma once
#include <algorithm>
#include <cstdint>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

namespace matmul {
namespace sim {

struct ServerCost {
  double cube = 0.0, mte2 = 0.0, fix = 0.0;
  std::uint64_t read = 0, written = 0;
};

// Charge one Matmul request; returns the time its result is ready (cycles of the requester's clock).
inline double charge(const ServerCost& c) {
  npukb::kern::KState& s = npukb::kern::state();
  s.issue += npukb::kern::kIssueCycles;
  const double span = std::max(c.cube, std::max(c.mte2, c.fix)) + 200.0;   // pipes overlap; fill/drain latency
  npukb::BlockState* aic = npukb::cube_partner();
  if (aic != nullptr) {                      // AIV client: the AIC of this core serves requests in order
    const double start = std::max(s.issue, aic->server_until);
    const double end = start + span;
    aic->server_until = end;
    aic->finish_cycles = std::max(aic->finish_cycles, end);
    aic->pipe_cycles[npukb::PIPE_ID_M] += c.cube;
    aic->pipe_cycles[npukb::PIPE_ID_MTE2] += c.mte2;
    aic->pipe_cycles[npukb::PIPE_ID_FIX] += c.fix;
    aic->gm_read_bytes += c.read;
    aic->gm_write_bytes += c.written;
    return end;
  }
  const double start = std::max(s.issue, std::max(s.pipe[npukb::PIPE_ID_M], s.pipe[npukb::PIPE_ID_FIX]));
  const double end = start + span;
  s.pipe[npukb::PIPE_ID_M] = s.pipe[npukb::PIPE_ID_MTE2] = s.pipe[npukb::PIPE_ID_FIX] = end;
  s.blk->pipe_cycles[npukb::PIPE_ID_M] += c.cube;
  s.blk->pipe_cycles[npukb::PIPE_ID_MTE2] += c.mte2;
  s.blk->pipe_cycles[npukb::PIPE_ID_FIX] += c.fix;
  s.blk->gm_read_bytes += c.read;
  s.blk->gm_write_bytes += c.written;
  npukb::kern::publish(s);
  return end;
}

inline void wait_until(double t) {
  npukb::kern::KState& s = npukb::kern::state();
  s.issue = std::max(s.issue, t);
  npukb::kern::publish(s);
}

// A vector core driving a cube core (mixed launch), as opposed to a cube-only kernel.
inline bool mixed_client() { return npukb::cube_partner() != nullptr; }

// REGIST_MATMUL_OBJ: each object is initialised with its tiling (when given); at most 4 objects.
inline void register_objects(AscendC::TPipe*, __gm__ std::uint8_t*) {}
template <class M>
inline void register_objects(AscendC::TPipe* pipe, __gm__ std::uint8_t* ws, M& obj) {
  (void)pipe;
  (void)ws;
  (void)obj;
}
template <class M, class... Rest>
inline void register_objects(AscendC::TPipe* pipe, __gm__ std::uint8_t* ws, M& obj, const TCubeTiling* tiling, Rest&&... rest) {
  if (tiling != nullptr) obj.Init(tiling, pipe);
  register_objects(pipe, ws, rest...);
}
template <class... Args>
inline void register_all(AscendC::TPipe* pipe, __gm__ std::uint8_t* ws, Args&&... args) {
  static_assert(sizeof...(Args) <= 8, "REGIST_MATMUL_OBJ registers at most 4 Matmul objects (with their tilings)");
  npukb::kern::CubeRegs& regs = npukb::kern::cube_regs();
  if (regs.cube_group) {
    npukb::violation("REGIST_MATMUL_OBJ", "cannot be used together with the cube group API (CubeResGroupHandle, "
                     "KfcWorkspace, GroupBarrier)", nullptr, 0);
  }
  regs.regist_matmul = true;
  register_objects(pipe, ws, args...);
}
// A cube core of a mixed launch only serves the vector cores' requests.
inline bool serves_only() {
  const npukb::BlockState& b = npukb::block();
  return b.core_type == npukb::CORE_AIC && (b.kernel_type == 4 || b.kernel_type == 5);
}

}  // namespace sim
}  // namespace matmul

#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                     \
  if (::matmul::sim::serves_only()) {                                \
    return;                                                          \
  }                                                                  \
  ::matmul::sim::register_all((tpipe), (workspace), __VA_ARGS__)
