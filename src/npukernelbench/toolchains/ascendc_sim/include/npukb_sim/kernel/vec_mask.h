// npukb_sim/kernel/vec_mask.h -- the vector mask register: SetMaskCount / SetMaskNorm, ResetMask,
// SetVectorMask. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_engine.h"

namespace AscendC {

inline void SetMaskCount() { npukb::kern::state().counter_mode = true; }
inline void SetMaskNorm() { npukb::kern::state().counter_mode = false; }
inline void ResetMask() {
  npukb::kern::KState& s = npukb::kern::state();
  s.mask[0] = s.mask[1] = ~0ull;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const std::uint64_t maskHigh, const std::uint64_t maskLow) {
  npukb::kern::KState& s = npukb::kern::state();
  s.mask[0] = maskLow;
  s.mask[1] = maskHigh;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(std::int32_t len) {
  npukb::kern::KState& s = npukb::kern::state();
  if (mode == MaskMode::COUNTER || s.counter_mode) {
    s.mask[0] = static_cast<std::uint64_t>(len);
    s.mask[1] = 0;
  } else {
    const std::uint64_t n = static_cast<std::uint64_t>(len < 0 ? 0 : len);
    s.mask[0] = sim::mask_low_bits(n);
    s.mask[1] = n > 64 ? sim::mask_low_bits(n - 64) : 0;
  }
}

}  // namespace AscendC
