// platform/soc_spec.h -- NpuArch, the architecture number of an AI processor
// (PlatformAscendC::GetCurNpuArch): the Atlas A2 / A3 training series are DAV_2201.
// Part of the ascendc-sim clean-room simulator; enumerator values are the numbers the names carry.
#pragma once
#include <cstdint>

enum class NpuArch : uint32_t {
  DAV_1001 = 1001,
  DAV_2002 = 2002,
  DAV_2201 = 2201,
  DAV_3002 = 3002,
  DAV_3510 = 3510,
};
