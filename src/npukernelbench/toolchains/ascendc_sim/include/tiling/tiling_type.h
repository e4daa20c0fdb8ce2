// tiling/tiling_type.h -- the types of the tiling-template framework (TilingBaseClass, AiCoreParams)
// under the header name template-style host code includes next to tiling/tiling_base.h.
// GET_TILINGKEY(id0, id1, ...): the tiling key of a template choice, one decimal digit per template
// argument, the first the least significant, offset by 10^19 (TILINGKEYOFFSET); host code reduces it
// modulo a power of ten to the key the kernel's TILING_KEY_IS compares.
// Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "tiling/tiling_base.h"

namespace optiling {

constexpr uint64_t TILINGKEYOFFSET = uint64_t(10000000000000000000UL);

constexpr uint64_t RecursiveSum() { return 0; }

template <typename T, typename... Args>
constexpr uint64_t RecursiveSum(T templateId, Args... templateIds) {
  return static_cast<uint64_t>(templateId) + 10U * RecursiveSum(templateIds...);
}

}  // namespace optiling

#define GET_TILINGKEY(...) (::optiling::TILINGKEYOFFSET + ::optiling::RecursiveSum(__VA_ARGS__))
