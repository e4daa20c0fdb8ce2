// npukb_sim/kernel/vec_gather.h -- Gather: dst[i] read from src at byte offsets given by a tensor
// (GatherMask is in gather_mask.h). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- Gather: dst[i] = *(src + srcBaseAddr + srcOffset[i]) (offsets in bytes) ----------------------
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint32_t>& srcOffset,
                   const std::uint32_t srcBaseAddr, const std::uint32_t count) { NPUKB_CALLER;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather: supports 16-bit and 32-bit data types");
  if (count == 0) return;
  sim::check_local("Gather", "dst", dst, static_cast<std::uint64_t>(count) * sizeof(T), true, file, line);
  sim::check_local("Gather", "srcOffset", srcOffset, static_cast<std::uint64_t>(count) * 4, true, file, line);
  const std::uint64_t sbytes = static_cast<std::uint64_t>(src.GetSize()) * sizeof(T);
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t o = static_cast<std::uint64_t>(srcBaseAddr) + srcOffset.ptr()[i];
    if (o % sizeof(T) != 0 || o + sizeof(T) > sbytes) {
      npukb::violation("Gather", "srcOffset[" + npukb::kern::num(i) + "] = " + npukb::kern::num(static_cast<long long>(o)) +
                       " bytes is unaligned or outside the src tensor (" + npukb::kern::num(static_cast<long long>(sbytes)) + " bytes)", file, line);
    }
    dst.ptr()[i] = sim::ld<T>(s + o);
  }
  sim::count_plan(count, 256 / sizeof(T));
  const npukb::kern::Span sp[2] = {sim::vspan(src, sbytes), sim::vspan(srcOffset, count * 4ull)};
  const npukb::kern::Span dp = sim::vspan(dst, count * sizeof(T));
  sim::vec_cost(kCostSimple * 4, static_cast<std::uint32_t>((count * sizeof(T) + 255) / 256), sp, 2, &dp, 1);
}

}  // namespace AscendC
