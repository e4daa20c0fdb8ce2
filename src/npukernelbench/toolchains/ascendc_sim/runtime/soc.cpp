// runtime/soc.cpp -- the run's SoC profile (npukb_sim/runtime.h: soc_info). Part of the ascendc-sim
// clean-room simulator. The launcher sets it from the request's `soc` line before the candidate's host
// code runs; a program without a request (the CPU twin) keeps the default profile, the Ascend 910B3.
#include <cstring>
#include <string>

#include "npukb_sim/runtime.h"
#include "soc_state.h"

namespace npukb {
namespace {
SocInfo make_default() {
  SocInfo s{};
  std::strncpy(s.name, "Ascend910B3", sizeof(s.name) - 1);
  std::strncpy(s.short_name, "Ascend910B", sizeof(s.short_name) - 1);
  s.soc_version = 1;   // SocVersion::ASCEND910B
  s.cube_cores = kDefaultCubeCores;
  s.vector_cores = kDefaultVectorCores;
  return s;
}
SocInfo g_soc = make_default();
}  // namespace

SocInfo soc_info() { return g_soc; }
int vector_cores() { return g_soc.vector_cores; }
int cube_cores() { return g_soc.cube_cores; }

namespace launcher {
bool set_soc(const std::string& name, const std::string& short_name, int soc_version, int cube_cores,
             int vector_cores) {
  if (name.empty() || name.size() >= sizeof(g_soc.name) || short_name.empty() ||
      short_name.size() >= sizeof(g_soc.short_name) || soc_version < 0 || cube_cores < 1 || vector_cores < 1 ||
      vector_cores > 256 || cube_cores > vector_cores) {
    return false;
  }
  SocInfo s{};
  std::memcpy(s.name, name.c_str(), name.size());
  std::memcpy(s.short_name, short_name.c_str(), short_name.size());
  s.soc_version = soc_version;
  s.cube_cores = cube_cores;
  s.vector_cores = vector_cores;
  g_soc = s;
  return true;
}
}  // namespace launcher
}  // namespace npukb
