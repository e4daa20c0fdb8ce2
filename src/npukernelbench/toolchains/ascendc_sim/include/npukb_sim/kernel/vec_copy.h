// npukb_sim/kernel/vec_copy.h -- Copy, the vector-unit move between VECIN/VECCALC/VECOUT tensors (the
// local-to-local member of the data-movement family; DataCopy is in data_copy.h). Clean-room part of
// ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- Copy: masked vector-unit move between VECIN/VECCALC/VECOUT tensors --------------------------
#define NPUKB_COPY_TYPES std::uint16_t, std::int16_t, half, std::uint32_t, std::int32_t, float
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[], sim::RepeatArg repeatTimes,
                 const CopyRepeatParams& repeatParams) { NPUKB_CALLER;
  static_assert(sim::one_of<T, NPUKB_COPY_TYPES>, "Copy: unsupported data type (uint16_t, int16_t, half, uint32_t, int32_t, float)");
  sim::unary_mask("Copy", dst, src, isSetMask, mask, 0, repeatTimes.value, repeatParams.dstStride, repeatParams.srcStride,
                  repeatParams.dstRepeatSize, repeatParams.srcRepeatSize, kCostSimple, [](T a) -> T { return a; }, file, line);
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, std::uint64_t mask, sim::RepeatArg repeatTimes,
                 const CopyRepeatParams& repeatParams) { NPUKB_CALLER;
  static_assert(sim::one_of<T, NPUKB_COPY_TYPES>, "Copy: unsupported data type (uint16_t, int16_t, half, uint32_t, int32_t, float)");
  sim::unary_mask("Copy", dst, src, isSetMask, nullptr, mask, repeatTimes.value, repeatParams.dstStride, repeatParams.srcStride,
                  repeatParams.dstRepeatSize, repeatParams.srcRepeatSize, kCostSimple, [](T a) -> T { return a; }, file, line);
}

}  // namespace AscendC
