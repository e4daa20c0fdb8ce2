// lib/index/arange_tiling.h -- host helper of the Arange kernel API: GetArangeMaxMinTmpSize and its
// deprecated name GetArithProgressionMaxMinTmpSize. Arange needs no temporary buffer: both report 0, as
// documented. Part of the ascendc-sim clean-room simulator.
#pragma once
#include <cstdint>

#include "npukb_sim/transform_tmp_sizes.h"

namespace AscendC {

inline void GetArangeMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  maxValue = npukb_lib::ArangeTmpBytes();
  minValue = npukb_lib::ArangeTmpBytes();
}

inline void GetArithProgressionMaxMinTmpSize(uint32_t& maxValue, uint32_t& minValue) {
  GetArangeMaxMinTmpSize(maxValue, minValue);
}

}  // namespace AscendC
