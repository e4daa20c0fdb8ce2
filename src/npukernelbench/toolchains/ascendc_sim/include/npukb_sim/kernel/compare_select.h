// npukb_sim/kernel/compare_select.h -- Compare / CompareScalar (bit masks) and Select (SELMODE).
// Count-form Compare processes whole 256-byte repeats only: a tail that is not a multiple of 256 bytes
// is silently ignored, as on the hardware. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {

template <typename T>
inline bool cmp(T a, T b, CMPMODE m) {
  switch (m) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    default: return a != b;
  }
}

inline void set_bit(std::uint8_t* p, std::uint64_t i, bool v) {
  if (v) p[i >> 3] = static_cast<std::uint8_t>(p[i >> 3] | (1u << (i & 7)));
  else p[i >> 3] = static_cast<std::uint8_t>(p[i >> 3] & ~(1u << (i & 7)));
}
inline bool get_bit(const std::uint8_t* p, std::uint64_t i) { return (p[i >> 3] >> (i & 7)) & 1u; }

// Compare over a plan; bits of repeat r are written at bit offset r * per_rep of dst.
template <typename T, typename U, typename G>
inline void compare_run(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& a, const Plan& pl,
                        const BinaryRepeatParams& p, G src1_at, const npukb::kern::Span* extra, int nextra, const char* file, int line) {
  if (pl.empty()) return;
  const Opnd oa = opnd(a, p.src0BlkStride, p.src0RepStride);
  const std::uint64_t ea = oa.extent(pl);
  const std::uint64_t dbytes = (static_cast<std::uint64_t>(pl.repeats) * pl.per_rep + 7) / 8;
  check_local(api, "src0", a, ea, true, file, line);
  check_local(api, "dst", dst, dbytes, true, file, line);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  // masked-out bits are written as 0
  for (std::uint32_t r = 0; r < pl.repeats; ++r) {
    for (std::uint32_t k = 0; k < pl.per_rep; ++k) set_bit(d, static_cast<std::uint64_t>(r) * pl.per_rep + k, false);
  }
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    set_bit(d, static_cast<std::uint64_t>(r) * pl.per_rep + k, src1_at(r, k, ld<T>(oa.p + oa.off(r, k))));
  });
  npukb::kern::Span sp[2] = {vspan(a, ea), {0, 0}};
  if (nextra) sp[1] = extra[0];
  const npukb::kern::Span dp = vspan(dst, dbytes);
  vec_cost(kCostSimple, pl.repeats, sp, 2, &dp, 1);
}

template <typename T>
constexpr bool cmp_types = one_of<T, half, float, std::int32_t>;
template <typename U>
constexpr bool mask_types = std::is_integral_v<U>;  // the mask is raw bits: any integer element type
}  // namespace sim

template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::cmp_types<T>, "Compare: unsupported data type (half, float, int32_t)");
  static_assert(sim::mask_types<U>, "Compare: dst must be an integer tensor (bit mask)");
  const std::uint64_t reps = static_cast<std::uint64_t>(calCount) * sizeof(T) / 256;  // tail ignored
  if (reps == 0) { sim::count_plan(0, 256 / sizeof(T)); return; }
  sim::Plan pl = sim::count_plan(reps * (256 / sizeof(T)), 256 / sizeof(T));
  const sim::Opnd ob = sim::opnd(src1, 1, 8);
  const std::uint64_t eb = ob.extent(pl);
  sim::check_local("Compare", "src1", src1, eb, true, file, line);
  const npukb::kern::Span x = sim::vspan(src1, eb);
  sim::compare_run("Compare", dst, src0, pl, BinaryRepeatParams(), [&](std::uint32_t r, std::uint32_t k, T a) {
    return sim::cmp(a, sim::ld<T>(ob.p + ob.off(r, k)), cmpMode); }, &x, 1, file, line);
}

template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const std::uint64_t mask[], sim::RepeatArg repeatTimes, const BinaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::cmp_types<T>, "Compare: unsupported data type (half, float, int32_t)");
  static_assert(sim::mask_types<U>, "Compare: dst must be an integer tensor (bit mask)");
  const sim::Plan pl = sim::make_plan("Compare", isSetMask, mask, 0, repeatTimes.value, 256 / sizeof(T), file, line);
  const sim::Opnd ob = sim::opnd(src1, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t eb = ob.extent(pl);
  sim::check_local("Compare", "src1", src1, eb, true, file, line);
  const npukb::kern::Span x = sim::vspan(src1, eb);
  sim::compare_run("Compare", dst, src0, pl, p, [&](std::uint32_t r, std::uint32_t k, T a) {
    return sim::cmp(a, sim::ld<T>(ob.p + ob.off(r, k)), cmpMode); }, &x, 1, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& p) { NPUKB_CALLER;
  const std::uint64_t bits[2] = {sim::mask_low_bits(mask), mask > 64 ? sim::mask_low_bits(mask - 64) : 0};
  if (mask > 256 / sizeof(T)) {
    npukb::violation("Compare", "mask " + npukb::kern::num(static_cast<long long>(mask)) + " is outside [1, " +
                     npukb::kern::num(256 / sizeof(T)) + "]", file, line);
  }
  Compare<T, U, isSetMask>(dst, src0, src1, cmpMode, npukb::kern::state().counter_mode ? &mask : bits, repeatTimes, p, file, line);
}

// Compare one repeat into the CMPMASK register (used by Select with VSEL_CMPMASK_SPR).
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const std::uint64_t mask[],
                    const BinaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::cmp_types<T>, "Compare: unsupported data type (half, float, int32_t)");
  const sim::Plan pl = sim::make_plan("Compare", isSetMask, mask, 0, 1, 256 / sizeof(T), file, line);
  const sim::Opnd oa = sim::opnd(src0, p.src0BlkStride, p.src0RepStride), ob = sim::opnd(src1, p.src1BlkStride, p.src1RepStride);
  sim::check_local("Compare", "src0", src0, oa.extent(pl), true, file, line);
  sim::check_local("Compare", "src1", src1, ob.extent(pl), true, file, line);
  npukb::kern::KState& s = npukb::kern::state();
  s.cmp_mask[0] = s.cmp_mask[1] = 0;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    if (sim::cmp(sim::ld<T>(oa.p + oa.off(r, k)), sim::ld<T>(ob.p + ob.off(r, k)), cmpMode)) s.cmp_mask[k / 64] |= 1ull << (k % 64);
  });
  sim::vec_cost(kCostSimple, 1, nullptr, 0, nullptr, 0);
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, std::uint64_t mask,
                    const BinaryRepeatParams& p) { NPUKB_CALLER;
  const std::uint64_t bits[2] = {sim::mask_low_bits(mask), mask > 64 ? sim::mask_low_bits(mask - 64) : 0};
  Compare<T, isSetMask>(src0, src1, cmpMode, bits, p);
}

template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst) {
  std::memcpy(dst.ptr(), npukb::kern::state().cmp_mask, 16);
}
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src) {
  std::memcpy(npukb::kern::state().cmp_mask, src.ptr(), 16);
}

template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::cmp_types<T>, "CompareScalar: unsupported data type (half, float, int32_t)");
  static_assert(sim::mask_types<U>, "CompareScalar: dst must be an integer tensor (bit mask)");
  const std::uint64_t reps = static_cast<std::uint64_t>(calCount) * sizeof(T) / 256;
  if (reps == 0) { sim::count_plan(0, 256 / sizeof(T)); return; }
  const sim::Plan pl = sim::count_plan(reps * (256 / sizeof(T)), 256 / sizeof(T));
  const T s = src1Scalar;
  sim::compare_run("CompareScalar", dst, src0, pl, BinaryRepeatParams(),
                   [&](std::uint32_t, std::uint32_t, T a) { return sim::cmp(a, s, cmpMode); }, nullptr, 0, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          const std::uint64_t mask[], sim::RepeatArg repeatTimes, const UnaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::cmp_types<T>, "CompareScalar: unsupported data type (half, float, int32_t)");
  const sim::Plan pl = sim::make_plan("CompareScalar", isSetMask, mask, 0, repeatTimes.value, 256 / sizeof(T), file, line);
  BinaryRepeatParams bp;
  bp.src0BlkStride = static_cast<std::uint8_t>(p.srcBlkStride);
  bp.src0RepStride = p.srcRepStride;
  const T s = src1Scalar;
  sim::compare_run("CompareScalar", dst, src0, pl, bp, [&](std::uint32_t, std::uint32_t, T a) { return sim::cmp(a, s, cmpMode); },
                   nullptr, 0, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,
                          std::uint64_t mask, sim::RepeatArg repeatTimes, const UnaryRepeatParams& p) { NPUKB_CALLER;
  const std::uint64_t bits[2] = {sim::mask_low_bits(mask), mask > 64 ? sim::mask_low_bits(mask - 64) : 0};
  CompareScalar<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, npukb::kern::state().counter_mode ? &mask : bits,
                                 repeatTimes, p, file, line);
}

// ---- Select -------------------------------------------------------------------------------------
namespace sim {
// bit index of element k of repeat r in the selection mask
inline bool sel_bit(const std::uint8_t* m, SELMODE mode, std::uint32_t r, std::uint32_t k, std::uint32_t per_rep) {
  if (mode == SELMODE::VSEL_CMPMASK_SPR) return get_bit(m, k);
  return get_bit(m, static_cast<std::uint64_t>(r) * per_rep + k);
}

template <typename T, typename U, typename G>
inline void select_run(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, SELMODE mode,
                       const Plan& pl, const BinaryRepeatParams& p, G src1_at, const char* file, int line) {
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstBlkStride, p.dstRepStride), oa = opnd(src0, p.src0BlkStride, p.src0RepStride);
  const std::uint64_t ed = od.extent(pl), ea = oa.extent(pl);
  check_local("Select", "dst", dst, ed, true, file, line);
  check_local("Select", "src0", src0, ea, true, file, line);
  const std::uint8_t* m;
  std::uint64_t cm[2];
  if (mode == SELMODE::VSEL_CMPMASK_SPR && selMask.loc().base == nullptr) {
    std::memcpy(cm, npukb::kern::state().cmp_mask, 16);
    m = reinterpret_cast<const std::uint8_t*>(cm);
  } else {
    const std::uint64_t mbytes = mode == SELMODE::VSEL_CMPMASK_SPR ? (pl.per_rep + 7) / 8
                                 : (static_cast<std::uint64_t>(pl.repeats) * pl.per_rep + 7) / 8;
    check_local("Select", "selMask", selMask, mbytes, true, file, line);
    m = reinterpret_cast<const std::uint8_t*>(selMask.ptr());
  }
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    const T v = sel_bit(m, mode, r, k, pl.per_rep) ? ld<T>(oa.p + oa.off(r, k)) : src1_at(r, k);
    out.put(r, od.p + od.off(r, k), v);
  });
  out.flush();
  const npukb::kern::Span sp = vspan(src0, ea), dp = vspan(dst, ed);
  vec_cost(kCostSimple, pl.repeats, &sp, 1, &dp, 1);
}
template <typename T>
constexpr bool sel_types = one_of<T, half, float>;
}  // namespace sim

template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
  static_assert(sim::mask_types<U>, "Select: selMask must be an integer tensor (bit mask)");
  const sim::Plan pl = sim::count_plan(calCount, 256 / sizeof(T));
  const sim::Opnd ob = sim::opnd(src1, 1, 8);
  sim::check_local("Select", "src1", src1, ob.extent(pl), true, file, line);
  sim::select_run(dst, selMask, src0, selMode, pl, BinaryRepeatParams(),
                  [&](std::uint32_t r, std::uint32_t k) { return sim::ld<T>(ob.p + ob.off(r, k)); }, file, line);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, std::uint32_t calCount) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
  static_assert(sim::mask_types<U>, "Select: selMask must be an integer tensor (bit mask)");
  const sim::Plan pl = sim::count_plan(calCount, 256 / sizeof(T));
  const T s = src1;
  sim::select_run(dst, selMask, src0, selMode, pl, BinaryRepeatParams(), [&](std::uint32_t, std::uint32_t) { return s; }, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, std::uint64_t mask, sim::RepeatArg repeatTimes,
                   const BinaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
  const sim::Plan pl = sim::make_plan("Select", isSetMask, nullptr, mask, repeatTimes.value, 256 / sizeof(T), file, line);
  const sim::Opnd ob = sim::opnd(src1, p.src1BlkStride, p.src1RepStride);
  sim::check_local("Select", "src1", src1, ob.extent(pl), true, file, line);
  sim::select_run(dst, selMask, src0, selMode, pl, p,
                  [&](std::uint32_t r, std::uint32_t k) { return sim::ld<T>(ob.p + ob.off(r, k)); }, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const std::uint64_t mask[], sim::RepeatArg repeatTimes,
                   const BinaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
  const sim::Plan pl = sim::make_plan("Select", isSetMask, mask, 0, repeatTimes.value, 256 / sizeof(T), file, line);
  const sim::Opnd ob = sim::opnd(src1, p.src1BlkStride, p.src1RepStride);
  sim::check_local("Select", "src1", src1, ob.extent(pl), true, file, line);
  sim::select_run(dst, selMask, src0, selMode, pl, p,
                  [&](std::uint32_t r, std::uint32_t k) { return sim::ld<T>(ob.p + ob.off(r, k)); }, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, std::uint64_t mask, sim::RepeatArg repeatTimes, const BinaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
  const sim::Plan pl = sim::make_plan("Select", isSetMask, nullptr, mask, repeatTimes.value, 256 / sizeof(T), file, line);
  const T s = src1;
  sim::select_run(dst, selMask, src0, selMode, pl, p, [&](std::uint32_t, std::uint32_t) { return s; }, file, line);
}
// VSEL_CMPMASK_SPR with the CMPMASK register set by Compare(src0, src1, ...) or SetCmpMask.
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, sim::RepeatArg repeatTimes,
                   const BinaryRepeatParams& p) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
  const sim::Plan pl = sim::make_plan("Select", false, nullptr, 0, repeatTimes.value, 256 / sizeof(T), file, line);
  const sim::Opnd ob = sim::opnd(src1, p.src1BlkStride, p.src1RepStride);
  sim::check_local("Select", "src1", src1, ob.extent(pl), true, file, line);
  LocalTensor<std::uint8_t> none;
  sim::select_run(dst, none, src0, SELMODE::VSEL_CMPMASK_SPR, pl, p,
                  [&](std::uint32_t r, std::uint32_t k) { return sim::ld<T>(ob.p + ob.off(r, k)); }, file, line);
}

// ---- SelectWithBytesMask: one mask element per data element (not bits): 0 -> src0, else -> src1 ----
// Shape [firstAxis, srcLastAxis] for the data, [firstAxis, maskLastAxis] for the mask (the mask's extra
// tail elements per row are ignored). Both last axes must be whole 32-byte blocks, the mask's a
// multiple of 16 elements.
struct SelectWithBytesMaskShapeInfo {
  std::uint32_t firstAxis = 0;
  std::uint32_t srcLastAxis = 0;
  std::uint32_t maskLastAxis = 0;
};

namespace sim {
template <typename T, typename U, typename A, typename B>
inline void select_bytes(const LocalTensor<T>& dst, const LocalTensor<U>& mask, const SelectWithBytesMaskShapeInfo& info,
                         A src0_at, B src1_at, const npukb::kern::Span* srcs, int nsrc, const char* file, int line) {
  const char* api = "SelectWithBytesMask";
  if (info.srcLastAxis * sizeof(T) % 32 != 0) {
    npukb::violation(api, "srcLastAxis " + npukb::kern::num(info.srcLastAxis) + " is not a whole number of 32-byte blocks",
                     file, line);
  }
  if (info.maskLastAxis * sizeof(U) % 32 != 0 || info.maskLastAxis % 16 != 0 || info.maskLastAxis < info.srcLastAxis) {
    npukb::violation(api, "maskLastAxis " + npukb::kern::num(info.maskLastAxis) + " must be a multiple of 16 elements, "
                     "whole 32-byte blocks, and at least srcLastAxis", file, line);
  }
  const std::uint64_t n = static_cast<std::uint64_t>(info.firstAxis) * info.srcLastAxis;
  const std::uint64_t mn = static_cast<std::uint64_t>(info.firstAxis) * info.maskLastAxis;
  if (n == 0) return;
  check_local(api, "dst", dst, n * sizeof(T), true, file, line);
  check_local(api, "mask", mask, mn * sizeof(U), true, file, line);
  std::vector<T> out(n);
  for (std::uint64_t r = 0; r < info.firstAxis; ++r) {
    for (std::uint64_t c = 0; c < info.srcLastAxis; ++c) {
      const std::uint64_t i = r * info.srcLastAxis + c;
      const bool pick1 = static_cast<float>(mask.ptr()[r * info.maskLastAxis + c]) != 0.0f;
      out[i] = pick1 ? src1_at(i) : src0_at(i);
    }
  }
  std::memcpy(dst.ptr(), out.data(), n * sizeof(T));
  const npukb::kern::Span dp = vspan(dst, n * sizeof(T));
  vec_cost(kCostSimple * 4, static_cast<std::uint32_t>((n * sizeof(T) + 255) / 256), srcs, nsrc, &dp, 1);
}
template <typename U>
constexpr bool bytes_mask_types = one_of<U, bool, std::uint8_t, std::int8_t, half, std::uint16_t, std::int16_t, float,
                                         std::uint32_t, std::int32_t>;
}  // namespace sim

template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                                const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "SelectWithBytesMask: unsupported data type (half, float)");
  static_assert(sim::bytes_mask_types<U>, "SelectWithBytesMask: unsupported mask data type");
  (void)sharedTmpBuffer;
  const std::uint64_t n = static_cast<std::uint64_t>(info.firstAxis) * info.srcLastAxis;
  sim::check_local("SelectWithBytesMask", "src0", src0, n * sizeof(T), true, file, line);
  const std::vector<T> a(src0.ptr(), src0.ptr() + n);
  const npukb::kern::Span sp[1] = {sim::vspan(src0, n * sizeof(T))};
  sim::select_bytes(dst, mask, info, [&a](std::uint64_t i) { return a[i]; }, [src1](std::uint64_t) { return src1; }, sp, 1,
                    file, line);
}
template <typename T, typename U, bool isReuseMask = true>
inline void SelectWithBytesMask(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                                const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) { NPUKB_CALLER;
  static_assert(sim::sel_types<T>, "SelectWithBytesMask: unsupported data type (half, float)");
  static_assert(sim::bytes_mask_types<U>, "SelectWithBytesMask: unsupported mask data type");
  (void)sharedTmpBuffer;
  const std::uint64_t n = static_cast<std::uint64_t>(info.firstAxis) * info.srcLastAxis;
  sim::check_local("SelectWithBytesMask", "src1", src1, n * sizeof(T), true, file, line);
  const std::vector<T> b(src1.ptr(), src1.ptr() + n);
  const npukb::kern::Span sp[1] = {sim::vspan(src1, n * sizeof(T))};
  sim::select_bytes(dst, mask, info, [src0](std::uint64_t) { return src0; }, [&b](std::uint64_t i) { return b[i]; }, sp, 1,
                    file, line);
}

}  // namespace AscendC
