// npukb_sim/kernel/vec_copy.h -- Copy, the vector-unit move between VECIN/VECCALC/VECOUT tensors (the
// local-to-local member of the data-movement family; DataCopy is in data_copy.h). Block strides in
// 32-byte blocks inside a repeat, repeat strides in 32-byte blocks between repeats. Unlike the other
// vector instructions, Copy in counter mode takes the mask as the element count of every repeat and
// honours repeatTime (documented). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {
template <typename T>
constexpr bool copy_types = one_of<T, std::uint16_t, std::int16_t, half, bfloat16_t, std::uint32_t, std::int32_t, float>;

template <typename T>
inline void copy_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool isSetMask, const std::uint64_t* bits, std::uint64_t cont,
                     long long repeat, const CopyRepeatParams& p, const char* file, int line) {
  const std::uint32_t per_rep = 256 / sizeof(T);
  const npukb::kern::KState& ks = npukb::kern::state();
  if (p.dstRepeatSize > 4095 || p.srcRepeatSize > 4095) {
    npukb::violation("Copy", "dstRepeatSize/srcRepeatSize must be in [0, 4095]", file, line);
  }
  Plan pl;
  if (ks.counter_mode) {
    // counter mode: mask = elements of each repeat, repeatTime counts
    check_repeat("Copy", repeat, file, line);
    std::uint64_t n = isSetMask ? (bits ? bits[0] : cont) : ks.mask[0];
    if (isSetMask) {
      npukb::kern::state().mask[0] = n;
      npukb::kern::state().mask[1] = 0;
    }
    if (n > per_rep) n = per_rep;
    pl.per_rep = per_rep;
    pl.repeats = static_cast<std::uint32_t>(repeat);
    pl.m0 = mask_low_bits(n);
    pl.m1 = n > 64 ? mask_low_bits(n - 64) : 0;
  } else {
    pl = make_plan("Copy", isSetMask, bits, cont, repeat, per_rep, file, line);
  }
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstStride, p.dstRepeatSize), os = opnd(src, p.srcStride, p.srcRepeatSize);
  const std::uint64_t ed = od.extent(pl), es = os.extent(pl);
  check_local("Copy", "dst", dst, ed, true, file, line);
  check_local("Copy", "src", src, es, true, file, line);
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    out.put(r, od.p + od.off(r, k), ld<T>(os.p + os.off(r, k)));
  });
  out.flush();
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(kCostSimple, pl.repeats, &sp, 1, &dp, 1);
}
}  // namespace sim

// ---- Copy: masked vector-unit move between VECIN/VECCALC/VECOUT tensors --------------------------
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask[], sim::RepeatArg repeatTime,
                 const CopyRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Copy<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::copy_types<T>, "Copy: unsupported data type (uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float)");
    sim::copy_run(dst, src, isSetMask, mask, 0, repeatTime.value, repeatParams, file, line);
  }
}
template <typename T, bool isSetMask = true>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint64_t mask, sim::RepeatArg repeatTime,
                 const CopyRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Copy<PrimT<T>, isSetMask>(sim::lite(dst), sim::lite(src), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::copy_types<T>, "Copy: unsupported data type (uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float)");
    sim::copy_run(dst, src, isSetMask, nullptr, mask, repeatTime.value, repeatParams, file, line);
  }
}

}  // namespace AscendC
