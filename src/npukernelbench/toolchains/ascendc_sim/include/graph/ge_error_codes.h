// graph/ge_error_codes.h -- graph status and GE status codes. Part of the ascendc-sim clean-room
// simulator.
#pragma once
#include <cstdint>

#include "graph/types.h"

namespace ge {

using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;

}  // namespace ge
