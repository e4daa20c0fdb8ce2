// launcher_cost.cpp -- the run's cost estimate (docs/cost-model.md): the slowest block (or vector core,
// when blocks run in waves) against the GM traffic at HBM bandwidth, plus the launch overhead. Part of
// the ascendc-sim clean-room simulator (launcher_internal.h lists the launcher's files).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "launcher_internal.h"

namespace npukb {
namespace launcher {

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
  // Waves: the launch's blocks over the SoC profile's vector cores (one wave unless g_waves).
  const npukb::SocInfo soc = npukb::soc_info();
  const std::size_t cores = static_cast<std::size_t>(soc.vector_cores);
  std::size_t waves = 1;
  std::string per_core_json;
  if (g_waves) {
    // Block b runs on vector core b % cores, after the blocks of the earlier waves on that core.
    std::vector<double> per_core(cores, 0.0);
    for (std::size_t b = 0; b < g_blocks.size(); ++b)
      per_core[b % per_core.size()] += g_blocks[b].state->finish_cycles;
    slowest = *std::max_element(per_core.begin(), per_core.end());
    waves = (g_blocks.size() + cores - 1) / cores;
    per_core_json = ", \"per_core_cycles\": [";
    for (std::size_t c = 0; c < per_core.size(); ++c) per_core_json += (c ? ", " : "") + json_num(per_core[c]);
    per_core_json += "]";
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
                         ", \"soc\": " + json_str(soc.name) + ", \"vector_cores\": " + std::to_string(cores) +
                         ", \"waves\": " + std::to_string(waves) + per_core_json + "}");
}

}  // namespace launcher
}  // namespace npukb
