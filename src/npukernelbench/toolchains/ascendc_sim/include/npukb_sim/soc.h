// npukb_sim/soc.h -- the run's SoC profile, as the runtime holds it (runtime/soc.cpp). Part of the
// ascendc-sim clean-room simulator: the platform headers (tiling/platform/platform_ascendc.h), the
// launcher and the kernel-side headers read the core counts and the SoC names here.
#pragma once

namespace npukb {

// The simulated SoC (a profile of npukernelbench/soc_profiles.py, which the harness names in the run's
// request; docs/simulator.md, "SoC profiles"). Returned by value: the kernel never holds its address.
struct SocInfo {
  char name[32];            // SoC_version, e.g. "Ascend910B3", "Ascend910_9392"
  char short_name[32];      // Short_SoC_version, e.g. "Ascend910B", "Ascend910_93"
  int soc_version;          // platform_ascendc::SocVersion value (ASCEND910B = 1, ASCEND910_93 = 2)
  int cube_cores;           // AI cores (one AI cube core each)
  int vector_cores;         // AI vector cores (two per AI core)
};
SocInfo soc_info();
int vector_cores();
int cube_cores();

}  // namespace npukb
