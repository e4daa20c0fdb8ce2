// npukb_sim/kernel/vec_fill.h -- data-fill vector APIs: Duplicate (a scalar into every element),
// CreateVecIndex (an arithmetic sequence) and Brcb (each source element fills one 32-byte block).
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- Duplicate ---------------------------------------------------------------------------------
#define NPUKB_DUP_TYPES half, bfloat16_t, float, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const std::int32_t& calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, NPUKB_DUP_TYPES>, "Duplicate: unsupported data type");
  const T s = scalarValue;
  sim::unary_count("Duplicate", dst, dst, calCount, kCostSimple, [s](T) -> T { return s; }, file, line);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const std::uint64_t mask[], sim::RepeatArg repeatTimes,
                      const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride) { NPUKB_CALLER;
  static_assert(sim::one_of<T, NPUKB_DUP_TYPES>, "Duplicate: unsupported data type");
  const T s = scalarValue;
  sim::unary_mask("Duplicate", dst, dst, isSetMask, mask, 0, repeatTimes.value, dstBlockStride, dstBlockStride,
                  dstRepeatStride, dstRepeatStride, kCostSimple, [s](T) -> T { return s; }, file, line);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, std::uint64_t mask, sim::RepeatArg repeatTimes,
                      const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride) { NPUKB_CALLER;
  static_assert(sim::one_of<T, NPUKB_DUP_TYPES>, "Duplicate: unsupported data type");
  const T s = scalarValue;
  sim::unary_mask("Duplicate", dst, dst, isSetMask, nullptr, mask, repeatTimes.value, dstBlockStride, dstBlockStride,
                  dstRepeatStride, dstRepeatStride, kCostSimple, [s](T) -> T { return s; }, file, line);
}

// ---- CreateVecIndex: dst[i] = firstValue + i (count form) -------------------------------------
// The index is formed exactly and rounded once to the element type (half keeps integers exact up
// to 2048, float up to 2^24).
template <typename T>
inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float, std::int16_t, std::int32_t>,
                "CreateVecIndex: unsupported data type (supported: half, float, int16_t, int32_t)");
  if (calCount == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(calCount) * sizeof(T);
  sim::check_local("CreateVecIndex", "dst", dst, bytes, true, file, line);
  T* d = dst.ptr();
  const double first = static_cast<double>(static_cast<float>(firstValue));
  for (std::uint32_t i = 0; i < calCount; ++i) {
    if constexpr (std::is_integral_v<T>) {
      d[i] = static_cast<T>(static_cast<std::int64_t>(firstValue) + static_cast<std::int64_t>(i));
    } else {
      d[i] = static_cast<T>(static_cast<float>(first + static_cast<double>(i)));
    }
  }
  sim::count_plan(static_cast<std::uint64_t>(calCount), 256 / sizeof(T));
  const npukb::kern::Span dp = sim::vspan(dst, bytes);
  sim::vec_cost(kCostSimple, static_cast<std::uint32_t>((bytes + 255) / 256), nullptr, 0, &dp, 1);
}

// ---- Brcb: each source element fills one 32-byte block --------------------------------------------
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, sim::RepeatArg repeatTimes, const BrcbRepeatParams& p) { NPUKB_CALLER;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: supports 16-bit and 32-bit data types");
  sim::check_repeat("Brcb", repeatTimes.value, file, line);
  const std::uint32_t reps = static_cast<std::uint32_t>(repeatTimes.value);
  if (reps == 0) return;
  const std::uint32_t epb = 32 / sizeof(T);
  const std::uint64_t ed = (static_cast<std::uint64_t>(reps - 1) * p.dstRepStride + 7ull * p.dstBlkStride + 1) * 32;
  sim::check_local("Brcb", "dst", dst, ed, true, file, line);
  sim::check_local("Brcb", "src0", src0, static_cast<std::uint64_t>(reps) * 8 * sizeof(T), true, file, line);
  for (std::uint32_t r = 0; r < reps; ++r) {
    for (std::uint32_t b = 0; b < 8; ++b) {
      const T v = src0.ptr()[r * 8 + b];
      T* o = dst.ptr() + (static_cast<std::uint64_t>(r) * p.dstRepStride + static_cast<std::uint64_t>(b) * p.dstBlkStride) * epb;
      for (std::uint32_t e = 0; e < epb; ++e) o[e] = v;
    }
  }
  const npukb::kern::Span sp = sim::vspan(src0, reps * 8 * sizeof(T)), dp = sim::vspan(dst, ed);
  sim::vec_cost(kCostSimple, reps, &sp, 1, &dp, 1);
}

}  // namespace AscendC
