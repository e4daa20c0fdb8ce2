// npukb_sim/kernel/vec_fill.h -- data-fill vector APIs: Duplicate (a scalar into every element),
// CreateVecIndex (an arithmetic sequence: count form, and mask/repeat forms where element k of repeat r
// gets firstValue + r * (256 / sizeof(T)) + k, or its flat index in counter mode) and Brcb (each
// source element fills one 32-byte block; dst may not overlap src). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/vec_drivers.h"

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

// ---- CreateVecIndex: dst[i] = firstValue + i ----------------------------------------------------
// The index is formed exactly and rounded once to the element type (half keeps integers exact up
// to 2048, float up to 2^24); integers wrap.
namespace sim {
template <typename T>
inline T vec_index(T first, std::uint64_t i) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<std::uint64_t>(static_cast<std::int64_t>(first)) + i));
  } else {
    return static_cast<T>(static_cast<float>(static_cast<double>(static_cast<float>(first)) + static_cast<double>(i)));
  }
}
template <typename T>
constexpr bool vec_index_types = one_of<T, half, float, std::int16_t, std::int32_t>;
template <typename T>
inline void create_vec_index_mask(const LocalTensor<T>& dst, T first, bool isSetMask, const std::uint64_t* bits, std::uint64_t cont,
                                  long long repeat, std::uint32_t blk, std::uint32_t rep, const char* file, int line) {
  const Plan pl = make_plan("CreateVecIndex", isSetMask, bits, cont, repeat, 256 / sizeof(T), file, line);
  if (pl.empty()) return;
  const Opnd od = opnd(dst, blk, rep);
  const std::uint64_t ed = od.extent(pl);
  check_local("CreateVecIndex", "dst", dst, ed, true, file, line);
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    st<T>(od.p + od.off(r, k), vec_index<T>(first, static_cast<std::uint64_t>(r) * pl.per_rep + k));
  });
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(kCostSimple, pl.repeats, nullptr, 0, &dp, 1);
}
}  // namespace sim

template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, std::uint32_t count) { NPUKB_CALLER;
  static_assert(sim::vec_index_types<T>, "CreateVecIndex: unsupported data type (supported: half, float, int16_t, int32_t)");
  if (count == 0) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(count) * sizeof(T);
  sim::check_local("CreateVecIndex", "dst", dst, bytes, true, file, line);
  T* d = dst.ptr();
  for (std::uint32_t i = 0; i < count; ++i) d[i] = sim::vec_index<T>(firstValue, i);
  sim::count_plan(static_cast<std::uint64_t>(count), 256 / sizeof(T));
  const npukb::kern::Span dp = sim::vspan(dst, bytes);
  sim::vec_cost(kCostSimple, static_cast<std::uint32_t>((bytes + 255) / 256), nullptr, 0, &dp, 1);
}
template <typename T>
inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, std::uint64_t mask[], sim::RepeatArg repeatTime,
                           std::uint16_t dstBlkStride, std::uint8_t dstRepStride) { NPUKB_CALLER;
  static_assert(sim::vec_index_types<T>, "CreateVecIndex: unsupported data type (supported: half, float, int16_t, int32_t)");
  sim::create_vec_index_mask(dst, firstValue, true, mask, 0, repeatTime.value, dstBlkStride, dstRepStride, file, line);
}
template <typename T>
inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, std::uint64_t mask, sim::RepeatArg repeatTime,
                           std::uint16_t dstBlkStride, std::uint8_t dstRepStride) { NPUKB_CALLER;
  static_assert(sim::vec_index_types<T>, "CreateVecIndex: unsupported data type (supported: half, float, int16_t, int32_t)");
  sim::create_vec_index_mask(dst, firstValue, true, nullptr, mask, repeatTime.value, dstBlkStride, dstRepStride, file, line);
}

// ---- Brcb: each source element fills one 32-byte block --------------------------------------------
template <typename T>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, sim::RepeatArg repeatTimes, const BrcbRepeatParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Brcb<PrimT<T>>(sim::lite(dst), sim::lite(src0), repeatTimes, p);
  } else {
    static_assert(sim::one_of<T, std::int16_t, std::uint16_t, half, bfloat16_t, std::int32_t, std::uint32_t, float>,
                  "Brcb: unsupported data type (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float)");
    sim::check_repeat("Brcb", repeatTimes.value, file, line);
    const std::uint32_t reps = static_cast<std::uint32_t>(repeatTimes.value);
    if (reps == 0) return;
    // dstBlkStride 0 is undefined on the device; the reference computation treats it as 1
    const std::uint32_t blk = p.dstBlkStride == 0 ? 1u : p.dstBlkStride;
    if (p.dstBlkStride == 0) npukb::warning("Brcb", "dstBlkStride 0 is undefined on the device (computed as 1)", file, line);
    const std::uint32_t epb = 32 / sizeof(T);
    const std::uint64_t ed = (static_cast<std::uint64_t>(reps - 1) * p.dstRepStride + 7ull * blk + 1) * 32;
    const std::uint64_t es = static_cast<std::uint64_t>(reps) * 8 * sizeof(T);
    sim::check_local("Brcb", "dst", dst, ed, true, file, line);
    sim::check_local("Brcb", "src0", src0, es, true, file, line);
    sim::forbid_overlap("Brcb", dst, ed, src0, es, "src", file, line);
    for (std::uint32_t r = 0; r < reps; ++r) {
      for (std::uint32_t b = 0; b < 8; ++b) {
        const T v = src0.ptr()[r * 8 + b];
        T* o = dst.ptr() + (static_cast<std::uint64_t>(r) * p.dstRepStride + static_cast<std::uint64_t>(b) * blk) * epb;
        for (std::uint32_t e = 0; e < epb; ++e) o[e] = v;
      }
    }
    const npukb::kern::Span sp = sim::vspan(src0, es), dp = sim::vspan(dst, ed);
    sim::vec_cost(kCostSimple, reps, &sp, 1, &dp, 1);
  }
}

}  // namespace AscendC
