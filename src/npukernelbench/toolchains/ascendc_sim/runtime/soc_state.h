// runtime/soc_state.h -- runtime-internal: the launcher sets the run's SoC profile (runtime/soc.cpp).
// Part of the ascendc-sim clean-room simulator; never included by kernel or host code. npukb::launcher
// is left out of the names exported to the candidate (sources.RUNTIME_INTERNAL_PREFIXES).
#pragma once
#include <string>

namespace npukb {
namespace launcher {
// False (nothing changed) when a figure is out of range: the request is malformed.
__attribute__((visibility("hidden"))) bool set_soc(const std::string& name, const std::string& short_name,
                                                   int soc_version, int cube_cores, int vector_cores);
}  // namespace launcher
}  // namespace npukb
