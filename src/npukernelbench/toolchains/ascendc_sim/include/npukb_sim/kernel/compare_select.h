// npukb_sim/kernel/compare_select.h -- the compare-and-select family: Compare (bit-mask result, count
// and mask/repeat forms; and into the CMPMASK register), Compares / CompareScalar (tensor against a
// scalar), GetCmpMask / SetCmpMask, Select (modes 0, 1, 2 with a selection mask; count, mask/repeat
// and register forms) and SelectWithBytesMask.
// Semantics, as documented for Atlas A2/A3:
//  * Compare/Compares compute whole 256-byte repeats: the count form ignores a tail that is not a
//    multiple of 256 bytes; the mask argument of the tensor forms is reserved (no effect): every
//    element of each repeat is compared. Result bit k of repeat r is bit r * (256 / sizeof(T)) + k of
//    dst (little-endian bit order). int32_t sources support CMPMODE::EQ only; dst is int8_t/uint8_t.
//    Comparisons follow IEEE rules (NaN compares unequal to everything).
//  * Select picks src0 where the selection bit is 1 and src1 where it is 0. Mode 0 (VSEL_CMPMASK_SPR)
//    uses the same 256 / sizeof(T) bits in every repeat; modes 1 and 2 consume the selection mask
//    continuously. The mask/repeat forms filter by the vector mask (masked-out elements keep dst).
//    The register forms take the selection mask (mode 0), the scalar src1 (mode 1) or the address of
//    the selection mask (mode 2) from the CMPMASK register set by SetCmpMask or a register Compare.
// Clean-room part of ascendc-sim.
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

template <typename T>
constexpr bool cmp_types = one_of<T, half, float, std::int32_t>;
template <typename U>
constexpr bool cmp_dst_types = one_of<U, std::int8_t, std::uint8_t>;
template <typename U>
constexpr bool mask_types = std::is_integral_v<U>;  // a selection mask is raw bits

template <typename T>
inline void check_cmp_mode(const char* api, CMPMODE m, const char* file, int line) {
  if (std::is_same_v<T, std::int32_t> && m != CMPMODE::EQ) {
    npukb::violation(api, "int32_t operands support CMPMODE::EQ only", file, line);
  }
}

// Compare `reps` whole repeats; bits of repeat r are written at bit offset r * per_rep of dst.
template <typename T, typename U, typename G>
inline void compare_run(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& a, std::uint32_t reps,
                        const Opnd& oa, G src1_at, const npukb::kern::Span* extra, int nextra, const char* file, int line) {
  if (reps == 0) return;
  Plan pl;
  pl.per_rep = 256 / sizeof(T);
  pl.repeats = reps;
  pl.m0 = pl.m1 = ~0ull;
  if (pl.per_rep <= 64) pl.m1 = 0;
  const std::uint64_t ea = oa.extent(pl);
  const std::uint64_t dbytes = (static_cast<std::uint64_t>(pl.repeats) * pl.per_rep + 7) / 8;
  check_local(api, "src0", a, ea, true, file, line);
  check_local(api, "dst", dst, dbytes, true, file, line);
  std::vector<std::uint8_t> bits(dbytes, 0);
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    set_bit(bits.data(), static_cast<std::uint64_t>(r) * pl.per_rep + k, src1_at(r, k, ld<T>(oa.p + oa.off(r, k))));
  });
  std::memcpy(dst.ptr(), bits.data(), dbytes);
  npukb::kern::Span sp[2] = {vspan(a, ea), {0, 0}};
  if (nextra) sp[1] = extra[0];
  const npukb::kern::Span dp = vspan(dst, dbytes);
  vec_cost(kCostSimple, pl.repeats, sp, 2, &dp, 1);
}

// Compare, tensor against tensor, over `reps` repeats with strides p.
template <typename T, typename U>
inline void compare_tt(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                       CMPMODE m, std::uint32_t reps, const BinaryRepeatParams& p, const char* file, int line) {
  check_cmp_mode<T>(api, m, file, line);
  if (reps == 0) return;
  Plan pl;
  pl.per_rep = 256 / sizeof(T);
  pl.repeats = reps;
  pl.m0 = ~0ull;
  pl.m1 = pl.per_rep > 64 ? ~0ull : 0;
  const Opnd oa = opnd(a, p.src0BlkStride, p.src0RepStride), ob = opnd(b, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t eb = ob.extent(pl);
  check_local(api, "src1", b, eb, true, file, line);
  const npukb::kern::Span x = vspan(b, eb);
  compare_run(api, dst, a, reps, oa, [&](std::uint32_t r, std::uint32_t k, T v) { return cmp(v, ld<T>(ob.p + ob.off(r, k)), m); },
              &x, 1, file, line);
}
// Compares / CompareScalar: tensor against a scalar.
template <typename T, typename U>
inline void compare_ts(const char* api, const LocalTensor<U>& dst, const LocalTensor<T>& a, T s, CMPMODE m, std::uint32_t reps,
                       std::uint32_t blk, std::uint32_t rep, const char* file, int line) {
  check_cmp_mode<T>(api, m, file, line);
  compare_run(api, dst, a, reps, opnd(a, blk, rep), [&](std::uint32_t, std::uint32_t, T v) { return cmp(v, s, m); }, nullptr, 0,
              file, line);
}
// Whole repeats of a count form (the tail short of 256 bytes is ignored); the API leaves normal mode.
template <typename T>
inline std::uint32_t cmp_count_repeats(std::uint64_t count) {
  count_plan(0, 256 / sizeof(T));
  return static_cast<std::uint32_t>(count * sizeof(T) / 256);
}
// Repeats of a mask/repeat form: the mask is reserved (no effect) on Atlas A2/A3.
inline std::uint32_t cmp_mask_repeats(const char* api, long long repeat, const char* file, int line) {
  check_repeat(api, repeat, file, line);
  return static_cast<std::uint32_t>(repeat);
}
}  // namespace sim

// ---- Compare: tensor against tensor ---------------------------------------------------------------
#define NPUKB_CMP_ASSERT(NAME)                                                                                        \
  static_assert(sim::cmp_types<T>, NAME ": unsupported source data type (half, float, int32_t)");                      \
  static_assert(sim::cmp_dst_types<U>, NAME ": dst's element type must be int8_t or uint8_t (a bit mask)")
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    std::uint32_t count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<U, T>) {  // tensors of a TensorTrait: the LiteType form
    Compare<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(src0), sim::lite(src1), cmpMode, count);
  } else {
    NPUKB_CMP_ASSERT("Compare");
    sim::compare_tt("Compare", dst, src0, src1, cmpMode, sim::cmp_count_repeats<T>(count), BinaryRepeatParams(), file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const std::uint64_t mask[], sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<U, T>) {  // tensors of a TensorTrait: the LiteType form
    Compare<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), cmpMode, mask, repeatTime, repeatParams);
  } else {
    NPUKB_CMP_ASSERT("Compare");
    (void)mask;
    sim::compare_tt("Compare", dst, src0, src1, cmpMode, sim::cmp_mask_repeats("Compare", repeatTime.value, file, line),
                    repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const std::uint64_t mask, sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<U, T>) {  // tensors of a TensorTrait: the LiteType form
    Compare<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), cmpMode, mask, repeatTime, repeatParams);
  } else {
    NPUKB_CMP_ASSERT("Compare");
    (void)mask;
    sim::compare_tt("Compare", dst, src0, src1, cmpMode, sim::cmp_mask_repeats("Compare", repeatTime.value, file, line),
                    repeatParams, file, line);
  }
}

// ---- Compare into the CMPMASK register: one repeat, the mask selects the compared elements --------
namespace sim {
template <typename T>
inline void compare_reg(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, bool isSetMask,
                        const std::uint64_t* bits, std::uint64_t cont, const BinaryRepeatParams& p, const char* file, int line) {
  static_assert(one_of<T, half, float>, "Compare (to the CMPMASK register): unsupported data type (half, float)");
  const Plan pl = make_plan("Compare", isSetMask, bits, cont, 1, 256 / sizeof(T), file, line);
  npukb::kern::KState& s = npukb::kern::state();
  s.cmp_mask[0] = s.cmp_mask[1] = 0;
  if (pl.empty()) return;
  const Opnd oa = opnd(src0, p.src0BlkStride, p.src0RepStride), ob = opnd(src1, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t ea = oa.extent(pl), eb = ob.extent(pl);
  check_local("Compare", "src0", src0, ea, true, file, line);
  check_local("Compare", "src1", src1, eb, true, file, line);
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    if (cmp(ld<T>(oa.p + oa.off(r, k)), ld<T>(ob.p + ob.off(r, k)), cmpMode)) s.cmp_mask[k / 64] |= 1ull << (k % 64);
  });
  const npukb::kern::Span sp[2] = {vspan(src0, ea), vspan(src1, eb)};
  vec_cost(kCostSimple, 1, sp, 2, nullptr, 0);
}
}  // namespace sim
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const std::uint64_t mask[],
                    const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Compare<PrimT<T>, isSetMask>(sim::lite(src0), sim::lite(src1), cmpMode, mask, repeatParams);
  } else {
    sim::compare_reg(src0, src1, cmpMode, isSetMask, mask, 0, repeatParams, file, line);
  }
}
template <typename T, bool isSetMask = true>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const std::uint64_t mask,
                    const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Compare<PrimT<T>, isSetMask>(sim::lite(src0), sim::lite(src1), cmpMode, mask, repeatParams);
  } else {
    sim::compare_reg(src0, src1, cmpMode, isSetMask, nullptr, mask, repeatParams, file, line);
  }
}

// ---- GetCmpMask / SetCmpMask: the 128-bit CMPMASK register --------------------------------------
namespace sim {
template <typename T>
inline void check_cmpmask_tensor(const char* api, const char* what, const LocalTensor<T>& t, const char* file, int line) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "GetCmpMask/SetCmpMask: the tensor holds b8, b16, b32 or b64 elements");
  check_local(api, what, t, 16, false, file, line);
  if (t.loc().addr % 16u != 0) {
    npukb::violation(api, std::string("unaligned UB address: ") + what + " starts at UB offset " + npukb::kern::num(t.loc().addr) +
                     ", which is not 16-byte aligned", file, line);
  }
}
}  // namespace sim
template <typename T>
inline void GetCmpMask(const LocalTensor<T>& dst) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    GetCmpMask<PrimT<T>>(sim::lite(dst));
  } else {
    sim::check_cmpmask_tensor("GetCmpMask", "dst", dst, file, line);
    std::memcpy(dst.ptr(), npukb::kern::state().cmp_mask, 16);
    const npukb::kern::Span dp = sim::vspan(dst, 16);
    sim::vec_cost(kCostSimple, 1, nullptr, 0, &dp, 1);
  }
}
template <typename T>
inline void SetCmpMask(const LocalTensor<T>& src) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    SetCmpMask<PrimT<T>>(sim::lite(src));
  } else {
    sim::check_cmpmask_tensor("SetCmpMask", "src", src, file, line);
    std::memcpy(npukb::kern::state().cmp_mask, src.ptr(), 16);
    const npukb::kern::Span sp = sim::vspan(src, 16);
    sim::vec_cost(kCostSimple, 1, &sp, 1, nullptr, 0);
  }
}

// ---- Compares / CompareScalar: tensor against a scalar ---------------------------------------------
#define NPUKB_CMPS_FORMS(NAME)                                                                                        \
  template <typename T, typename U>                                                                                   \
  inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,         \
                   std::uint32_t count) { NPUKB_CALLER;                                                           \
    NPUKB_CMP_ASSERT(#NAME);                                                                                          \
    sim::compare_ts(#NAME, dst, src0, src1Scalar, cmpMode, sim::cmp_count_repeats<T>(count), 1, 8, file, line);       \
  }                                                                                                                   \
  template <typename T, typename U, bool isSetMask = true>                                                            \
  inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,         \
                   const std::uint64_t mask[], sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                                \
    NPUKB_CMP_ASSERT(#NAME);                                                                                          \
    (void)mask;                                                                                                       \
    sim::compare_ts(#NAME, dst, src0, src1Scalar, cmpMode, sim::cmp_mask_repeats(#NAME, repeatTime.value, file, line), \
                    repeatParams.srcBlkStride, repeatParams.srcRepStride, file, line);                               \
  }                                                                                                                   \
  template <typename T, typename U, bool isSetMask = true>                                                            \
  inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode,         \
                   const std::uint64_t mask, sim::RepeatArg repeatTime, const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                                \
    NPUKB_CMP_ASSERT(#NAME);                                                                                          \
    (void)mask;                                                                                                       \
    sim::compare_ts(#NAME, dst, src0, src1Scalar, cmpMode, sim::cmp_mask_repeats(#NAME, repeatTime.value, file, line), \
                    repeatParams.srcBlkStride, repeatParams.srcRepStride, file, line);                               \
  }
NPUKB_CMPS_FORMS(Compares)
NPUKB_CMPS_FORMS(CompareScalar)  // the older name of Compares
#undef NPUKB_CMPS_FORMS
#undef NPUKB_CMP_ASSERT

// ---- Select -------------------------------------------------------------------------------------
namespace sim {
template <typename T>
constexpr bool sel_types = one_of<T, half, float>;

// The selection bits of a Select: mode 0 reuses bits [0, per_rep) in every repeat, modes 1 and 2
// consume per_rep bits per repeat.
struct SelBits {
  const std::uint8_t* p = nullptr;
  bool reuse = false;
  std::uint32_t per_rep = 0;
  bool at(std::uint32_t r, std::uint32_t k) const {
    return get_bit(p, reuse ? k : static_cast<std::uint64_t>(r) * per_rep + k);
  }
};

template <typename U>
inline SelBits sel_from_tensor(const LocalTensor<U>& selMask, SELMODE mode, const Plan& pl, const char* file, int line) {
  SelBits b;
  b.reuse = mode == SELMODE::VSEL_CMPMASK_SPR;
  b.per_rep = pl.per_rep;
  const std::uint64_t mbytes = b.reuse ? (pl.per_rep + 7) / 8 : (static_cast<std::uint64_t>(pl.repeats) * pl.per_rep + 7) / 8;
  check_local("Select", "selMask", selMask, mbytes, true, file, line);
  b.p = reinterpret_cast<const std::uint8_t*>(selMask.ptr());
  return b;
}

template <typename T, typename G>
inline void select_run(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const SelBits& sel, const Plan& pl,
                       const BinaryRepeatParams& p, G src1_at, const npukb::kern::Span* extra, int nextra, const char* file,
                       int line) {
  if (pl.empty()) return;
  const Opnd od = opnd(dst, p.dstBlkStride, p.dstRepStride), oa = opnd(src0, p.src0BlkStride, p.src0RepStride);
  const std::uint64_t ed = od.extent(pl), ea = oa.extent(pl);
  check_local("Select", "dst", dst, ed, true, file, line);
  check_local("Select", "src0", src0, ea, true, file, line);
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    const T v = sel.at(r, k) ? ld<T>(oa.p + oa.off(r, k)) : src1_at(r, k);
    out.put(r, od.p + od.off(r, k), v);
  });
  out.flush();
  npukb::kern::Span sp[2] = {vspan(src0, ea), {0, 0}};
  if (nextra) sp[1] = extra[0];
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(kCostSimple, pl.repeats, sp, 2, &dp, 1);
}

inline void check_sel_mode(SELMODE mode, bool scalar_src1, const char* file, int line) {
  if (scalar_src1 && mode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    npukb::violation("Select", "a scalar src1 needs SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1)", file, line);
  }
  if (!scalar_src1 && mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    npukb::violation("Select", "SELMODE::VSEL_TENSOR_SCALAR_MODE (mode 1) takes a scalar src1", file, line);
  }
}

// Select with a tensor src1 (modes 0 and 2) over plan pl with strides p.
template <typename T, typename U>
inline void select_tt(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                      const LocalTensor<T>& src1, SELMODE mode, const Plan& pl, const BinaryRepeatParams& p, const char* file,
                      int line) {
  check_sel_mode(mode, false, file, line);
  if (pl.empty()) return;
  const SelBits sel = sel_from_tensor(selMask, mode, pl, file, line);
  const Opnd ob = opnd(src1, p.src1BlkStride, p.src1RepStride);
  const std::uint64_t eb = ob.extent(pl);
  check_local("Select", "src1", src1, eb, true, file, line);
  const npukb::kern::Span x = vspan(src1, eb);
  select_run(dst, src0, sel, pl, p, [&](std::uint32_t r, std::uint32_t k) { return ld<T>(ob.p + ob.off(r, k)); }, &x, 1,
             file, line);
}
template <typename T, typename U>
inline void select_ts(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                      SELMODE mode, const Plan& pl, const BinaryRepeatParams& p, const char* file, int line) {
  check_sel_mode(mode, true, file, line);
  if (pl.empty()) return;
  const SelBits sel = sel_from_tensor(selMask, mode, pl, file, line);
  select_run(dst, src0, sel, pl, p, [src1](std::uint32_t, std::uint32_t) { return src1; }, nullptr, 0, file, line);
}

// The CMPMASK register read as the UB address of a selection mask (mode 2 register form): a pointer
// into this block's UB (what GetPhyAddr gives here) or a UB byte offset (what it is on the device).
inline const std::uint8_t* cmpmask_address(std::uint64_t bytes_needed, const char* file, int line) {
  const std::uint64_t a = npukb::kern::state().cmp_mask[0];
  std::uint8_t* ub = npukb::block().ub;
  const auto* q = reinterpret_cast<const std::uint8_t*>(a);
  std::uint64_t off;
  if (ub != nullptr && q >= ub && q < ub + npukb::kUbBytes) off = static_cast<std::uint64_t>(q - ub);
  else off = a;
  if (off % 32 != 0 || off + bytes_needed > npukb::kUbBytes) {
    npukb::violation("Select", "the CMPMASK register (SetCmpMask) does not hold the 32-byte aligned UB address of a "
                     "selection mask of " + npukb::kern::num(static_cast<long long>(bytes_needed)) + " bytes", file, line);
  }
  return ub + off;
}
}  // namespace sim

#define NPUKB_SEL_ASSERT                                                                                            \
  static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");                                  \
  static_assert(sim::mask_types<U>, "Select: selMask must be an integer tensor (bit mask)")
// count forms (the API works in counter mode and ends in normal mode)
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, std::uint32_t count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Select<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(selMask), sim::lite(src0), sim::lite(src1), selMode, count);
  } else {
    NPUKB_SEL_ASSERT;
    const sim::Plan pl = sim::count_plan(count, 256 / sizeof(T));
    sim::select_tt(dst, selMask, src0, src1, selMode, pl, BinaryRepeatParams(), file, line);
  }
}
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, std::uint32_t count) { NPUKB_CALLER;
  NPUKB_SEL_ASSERT;
  const sim::Plan pl = sim::count_plan(count, 256 / sizeof(T));
  sim::select_ts(dst, selMask, src0, src1, selMode, pl, BinaryRepeatParams(), file, line);
}
// mask / repeat forms (isSetMask is reserved: the mask argument is always used)
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, std::uint64_t mask, sim::RepeatArg repeatTime,
                   const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Select<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(selMask), sim::lite(src0), sim::lite(src1), selMode, mask, repeatTime, repeatParams);
  } else {
    NPUKB_SEL_ASSERT;
    const sim::Plan pl = sim::make_plan("Select", true, nullptr, mask, repeatTime.value, 256 / sizeof(T), file, line);
    sim::select_tt(dst, selMask, src0, src1, selMode, pl, repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const std::uint64_t mask[], sim::RepeatArg repeatTime,
                   const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Select<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(selMask), sim::lite(src0), sim::lite(src1), selMode, mask, repeatTime, repeatParams);
  } else {
    NPUKB_SEL_ASSERT;
    const sim::Plan pl = sim::make_plan("Select", true, mask, 0, repeatTime.value, 256 / sizeof(T), file, line);
    sim::select_tt(dst, selMask, src0, src1, selMode, pl, repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, std::uint64_t mask, sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  NPUKB_SEL_ASSERT;
  const sim::Plan pl = sim::make_plan("Select", true, nullptr, mask, repeatTime.value, 256 / sizeof(T), file, line);
  sim::select_ts(dst, selMask, src0, src1, selMode, pl, repeatParams, file, line);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, T src1,
                   SELMODE selMode, const std::uint64_t mask[], sim::RepeatArg repeatTime,
                   const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  NPUKB_SEL_ASSERT;
  const sim::Plan pl = sim::make_plan("Select", true, mask, 0, repeatTime.value, 256 / sizeof(T), file, line);
  sim::select_ts(dst, selMask, src0, src1, selMode, pl, repeatParams, file, line);
}
// register form of mode 1: the scalar src1 is the first element of the tensor SetCmpMask loaded; the
// vector mask comes from SetVectorMask
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    Select<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(selMask), sim::lite(src0), repeatTime, repeatParams);
  } else {
    NPUKB_SEL_ASSERT;
    const sim::Plan pl = sim::make_plan("Select", false, nullptr, 0, repeatTime.value, 256 / sizeof(T), file, line);
    T s;
    std::memcpy(&s, npukb::kern::state().cmp_mask, sizeof(T));
    sim::select_ts(dst, selMask, src0, s, SELMODE::VSEL_TENSOR_SCALAR_MODE, pl, repeatParams, file, line);
  }
}
// register forms of modes 0 and 2: the selection bits (mode 0) or the selection mask's address (mode 2)
// come from the CMPMASK register; the vector mask from SetVectorMask
template <typename T, SELMODE selMode>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, sim::RepeatArg repeatTime,
                   const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Select<PrimT<T>, selMode>(sim::lite(dst), sim::lite(src0), sim::lite(src1), repeatTime, repeatParams);
  } else {
    static_assert(sim::sel_types<T>, "Select: unsupported data type (half, float)");
    static_assert(selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE,
                  "Select<T, selMode>(dst, src0, src1, ...): mode 1 takes a selMask tensor and a scalar (Select<T, U>)");
    const sim::Plan pl = sim::make_plan("Select", false, nullptr, 0, repeatTime.value, 256 / sizeof(T), file, line);
    if (pl.empty()) return;
    sim::SelBits sel;
    sel.per_rep = pl.per_rep;
    std::uint64_t reg[2];
    if (selMode == SELMODE::VSEL_CMPMASK_SPR) {
      std::memcpy(reg, npukb::kern::state().cmp_mask, 16);
      sel.p = reinterpret_cast<const std::uint8_t*>(reg);
      sel.reuse = true;
    } else {
      sel.p = sim::cmpmask_address((static_cast<std::uint64_t>(pl.repeats) * pl.per_rep + 7) / 8, file, line);
    }
    const sim::Opnd ob = sim::opnd(src1, repeatParams.src1BlkStride, repeatParams.src1RepStride);
    const std::uint64_t eb = ob.extent(pl);
    sim::check_local("Select", "src1", src1, eb, true, file, line);
    const npukb::kern::Span x = sim::vspan(src1, eb);
    sim::select_run(dst, src0, sel, pl, repeatParams, [&](std::uint32_t r, std::uint32_t k) { return sim::ld<T>(ob.p + ob.off(r, k)); },
                    &x, 1, file, line);
  }
}
#undef NPUKB_SEL_ASSERT

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
