// npukb_sim/kernel/vec_fused.h -- fused instructions of the composite family that convert their
// result: AddReluCast / SubReluCast (dst = Cast(Relu(src0 +/- src1))), MulCast (dst = Cast(src0 *
// src1)), AddDeqRelu (dst = Relu(Cast(half, (src0 + src1) * DEQSCALE))), and CastDequant (int32_t ->
// half by the DEQSCALE half scale; int16_t -> int8_t/uint8_t by (src * scale) + offset with the
// parameters of SetDeqScale, per tensor or, in vector mode, per element position of a 32-byte block).
// The arithmetic happens in the source type, the conversion rounds to nearest even and saturates. A
// repeat covers 256 bytes of the wider type (the mask selects by it); each operand is laid out in
// 32-byte blocks of its own type, except CastDequant's b8 results: the 16 results of a source block
// fill one half of a destination block (halfBlock = true: bytes 0-15, false: bytes 16-31; the other
// half is left as it is). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/cast.h"
#include "npukb_sim/kernel/vec_drivers.h"

namespace AscendC {
namespace sim {

// (dst, src) pairs of AddReluCast / SubReluCast and of MulCast.
template <typename D, typename S>
constexpr bool relu_cast_ok = (std::is_same_v<S, half> && std::is_same_v<D, std::int8_t>) ||
                              (std::is_same_v<S, std::int16_t> && std::is_same_v<D, std::int8_t>) ||
                              (std::is_same_v<S, float> && std::is_same_v<D, half>);
template <typename D, typename S>
constexpr bool mul_cast_ok = std::is_same_v<S, half> && one_of<D, std::int8_t, std::uint8_t>;

// The conversion of a fused instruction: round to nearest even, saturate.
template <typename D, typename S>
inline D fused_conv(S v) { return cast_one<D, S>(v, RoundMode::CAST_RINT); }
}  // namespace sim

#define NPUKB_FUSED_CAST(NAME, OKTRAIT, OKMSG, EXPR)                                                                 \
  template <typename T, typename U>                                                                                 \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,               \
                   const std::uint32_t count) { NPUKB_CALLER;                                                   \
    if constexpr (sim::has_trait<T, U>) {  /* tensors of a TensorTrait: the LiteType form */                            \
      NAME<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(src0), sim::lite(src1), count);                                \
    } else {                                                                                                            \
    static_assert(sim::OKTRAIT<T, U>, #NAME ": unsupported (dst, src) data types (" OKMSG ")");                      \
    sim::mixed_count<false>(#NAME, dst, src0, src1, count, kCostSimple, [](U a, U b) -> T { return EXPR; }, file,    \
                            line);                                                                                  \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true>                                                          \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,               \
                   const std::uint64_t mask[], sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T, U>) {  /* tensors of a TensorTrait: the LiteType form */                            \
      NAME<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);\
    } else {                                                                                                            \
    static_assert(sim::OKTRAIT<T, U>, #NAME ": unsupported (dst, src) data types (" OKMSG ")");                      \
    sim::mixed_mask<false>(#NAME, dst, src0, src1, isSetMask, mask, 0, repeatTime.value, repeatParams, kCostSimple, \
                           [](U a, U b) -> T { return EXPR; }, file, line);                                         \
    }                                                                                                                   \
  }                                                                                                                 \
  template <typename T, typename U, bool isSetMask = true>                                                          \
  inline void NAME(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,               \
                   std::uint64_t mask, sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;                                                                              \
    if constexpr (sim::has_trait<T, U>) {  /* tensors of a TensorTrait: the LiteType form */                            \
      NAME<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);\
    } else {                                                                                                            \
    static_assert(sim::OKTRAIT<T, U>, #NAME ": unsupported (dst, src) data types (" OKMSG ")");                      \
    sim::mixed_mask<false>(#NAME, dst, src0, src1, isSetMask, nullptr, mask, repeatTime.value, repeatParams,        \
                           kCostSimple, [](U a, U b) -> T { return EXPR; }, file, line);                            \
    }                                                                                                                   \
  }

NPUKB_FUSED_CAST(AddReluCast, relu_cast_ok, "half -> int8_t, int16_t -> int8_t, float -> half",
                 (sim::fused_conv<T, U>(sim::relu_of<U>(sim::wadd<U>(a, b)))))
NPUKB_FUSED_CAST(SubReluCast, relu_cast_ok, "half -> int8_t, int16_t -> int8_t, float -> half",
                 (sim::fused_conv<T, U>(sim::relu_of<U>(sim::wsub<U>(a, b)))))
NPUKB_FUSED_CAST(MulCast, mul_cast_ok, "half -> int8_t, half -> uint8_t", (sim::fused_conv<T, U>(sim::wmul<U>(a, b))))
#undef NPUKB_FUSED_CAST

// ---- AddDeqRelu: half dst, int32_t sources, the DEQSCALE half scale -------------------------------
namespace sim {
inline half add_deq_relu(std::int32_t a, std::int32_t b, float scale) {
  const half h = round_fp<half>(static_cast<long double>(wadd<std::int32_t>(a, b)) * static_cast<long double>(scale),
                                RoundMode::CAST_RINT);
  return relu_of<half>(h);
}
template <typename T, typename U>
constexpr bool add_deq_relu_ok = std::is_same_v<T, half> && std::is_same_v<U, std::int32_t>;
}  // namespace sim

namespace sim {
inline void add_deq_relu_count(const LocalTensor<half>& dst, const LocalTensor<std::int32_t>& a, const LocalTensor<std::int32_t>& b,
                               long long count, const char* file, int line) {
  const float sc = deq_half_scale();
  mixed_count<false>("AddDeqRelu", dst, a, b, count, kCostSimple,
                     [sc](std::int32_t x, std::int32_t y) -> half { return add_deq_relu(x, y, sc); }, file, line);
}
inline void add_deq_relu_mask(const LocalTensor<half>& dst, const LocalTensor<std::int32_t>& a, const LocalTensor<std::int32_t>& b,
                              bool isSetMask, const std::uint64_t* bits, std::uint64_t cont, long long repeat,
                              const BinaryRepeatParams& p, const char* file, int line) {
  const float sc = deq_half_scale();
  mixed_mask<false>("AddDeqRelu", dst, a, b, isSetMask, bits, cont, repeat, p, kCostSimple,
                    [sc](std::int32_t x, std::int32_t y) -> half { return add_deq_relu(x, y, sc); }, file, line);
}
}  // namespace sim

template <typename T, typename U>
inline void AddDeqRelu(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const std::int32_t& count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    AddDeqRelu<PrimT<T>, PrimT<U>>(sim::lite(dst), sim::lite(src0), sim::lite(src1), count);
  } else {
    static_assert(sim::add_deq_relu_ok<T, U>, "AddDeqRelu: dst must be half and the sources int32_t");
    sim::add_deq_relu_count(dst, src0, src1, count, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, const std::uint64_t mask[],
                       sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    AddDeqRelu<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::add_deq_relu_ok<T, U>, "AddDeqRelu: dst must be half and the sources int32_t");
    sim::add_deq_relu_mask(dst, src0, src1, isSetMask, mask, 0, repeatTime.value, repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, std::uint64_t mask,
                       sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    AddDeqRelu<PrimT<T>, PrimT<U>, isSetMask>(sim::lite(dst), sim::lite(src0), sim::lite(src1), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::add_deq_relu_ok<T, U>, "AddDeqRelu: dst must be half and the sources int32_t");
    sim::add_deq_relu_mask(dst, src0, src1, isSetMask, nullptr, mask, repeatTime.value, repeatParams, file, line);
  }
}
// The forms without template parameters (half dst, int32_t sources).
inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<std::int32_t>& src0, const LocalTensor<std::int32_t>& src1,
                       const std::int32_t& count) { NPUKB_CALLER;
  sim::add_deq_relu_count(dst, src0, src1, count, file, line);
}
template <bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<std::int32_t>& src0, const LocalTensor<std::int32_t>& src1,
                       std::uint64_t mask[], sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  sim::add_deq_relu_mask(dst, src0, src1, isSetMask, mask, 0, repeatTime.value, repeatParams, file, line);
}
template <bool isSetMask = true>
inline void AddDeqRelu(const LocalTensor<half>& dst, const LocalTensor<std::int32_t>& src0, const LocalTensor<std::int32_t>& src1,
                       std::uint64_t mask, sim::RepeatArg repeatTime, const BinaryRepeatParams& repeatParams) { NPUKB_CALLER;
  sim::add_deq_relu_mask(dst, src0, src1, isSetMask, nullptr, mask, repeatTime.value, repeatParams, file, line);
}

// ---- CastDequant ---------------------------------------------------------------------------------
namespace sim {
template <typename T, typename U>
constexpr bool cast_dequant_ok = (std::is_same_v<U, std::int32_t> && std::is_same_v<T, half>) ||
                                 (std::is_same_v<U, std::int16_t> && one_of<T, std::int8_t, std::uint8_t>);

// The 16 quantization words of an int16_t -> b8 CastDequant (the same word 16 times per tensor).
template <typename T>
inline void deq_words(bool isVecDeq, DeqWord* w, const char* file, int line) {
  npukb::kern::KState& s = npukb::kern::state();
  if (isVecDeq) {
    if (s.vdeq_ub == ~0u || npukb::block().ub == nullptr) {
      npukb::violation("CastDequant", "isVecDeq = true needs the quantization tensor of SetDeqScale(vdeq, vdeqInfo)", file, line);
    }
    for (int i = 0; i < 16; ++i) {
      std::uint64_t word;
      std::memcpy(&word, npukb::block().ub + s.vdeq_ub + 8u * static_cast<unsigned>(i), 8);
      w[i] = deq_decode(word);
    }
  } else {
    for (int i = 0; i < 16; ++i) w[i] = deq_decode(s.deq_reg);
  }
  const bool want = std::is_same_v<T, std::int8_t>;
  for (int i = 0; i < 16; ++i) {
    if (w[i].sign != want) {
      npukb::violation("CastDequant", std::string("the sign mode of SetDeqScale (") + (w[i].sign ? "true" : "false") +
                       ") does not match dst's type (signMode true: int8_t, false: uint8_t)", file, line);
    }
  }
}

// int16_t -> b8 over plan pl: element k of repeat r goes to half a destination block.
template <typename T>
inline void cast_dequant_b8(const LocalTensor<T>& dst, const LocalTensor<std::int16_t>& src, bool isVecDeq, bool halfBlock,
                            const Plan& pl, std::uint32_t dblk, std::uint32_t sblk, std::uint32_t drep, std::uint32_t srep,
                            const char* file, int line) {
  const char* api = "CastDequant";
  if (pl.empty()) return;
  DeqWord w[16];
  deq_words<T>(isVecDeq, w, file, line);
  const Opnd os = opnd(src, sblk, srep);
  const std::uint64_t es = os.extent(pl);
  std::uint64_t ed = 0;
  auto dbyte = [&](std::uint32_t r, std::uint32_t k) {
    return (static_cast<std::uint64_t>(r) * drep + static_cast<std::uint64_t>(k / 16) * dblk) * 32 + (halfBlock ? 0u : 16u) + k % 16;
  };
  pl.each([&](std::uint32_t r, std::uint32_t k) { ed = std::max<std::uint64_t>(ed, dbyte(r, k) + 1); });
  check_local(api, "src", src, es, true, file, line);
  check_local(api, "dst", dst, ed, true, file, line);
  std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
  RepeatWriter<T> out;
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    out.at(r);
    out.put(r, d + dbyte(r, k), deq_b8<T>(ld<std::int16_t>(os.p + os.off(r, k)), w[k % 16]));
  });
  out.flush();
  const npukb::kern::Span sp = vspan(src, es), dp = vspan(dst, ed);
  vec_cost(kCostSimple, pl.repeats, &sp, 1, &dp, 1);
}

template <typename T, typename U>
inline void cast_dequant_mask(const LocalTensor<T>& dst, const LocalTensor<U>& src, bool isSetMask, bool isVecDeq, bool halfBlock,
                              const std::uint64_t* bits, std::uint64_t cont, long long repeat, const UnaryRepeatParams& p,
                              const char* file, int line) {
  if constexpr (std::is_same_v<U, std::int32_t>) {
    (void)isVecDeq;
    (void)halfBlock;
    const float sc = deq_half_scale();
    unary_mask("CastDequant", dst, src, isSetMask, bits, cont, repeat, p.dstBlkStride, p.srcBlkStride, p.dstRepStride,
               p.srcRepStride, kCostSimple, [sc](U a) -> T { return cast_elem<half, std::int32_t>(a, RoundMode::CAST_RINT, sc); },
               file, line);
  } else {
    const Plan pl = make_plan("CastDequant", isSetMask, bits, cont, repeat, 128, file, line);
    cast_dequant_b8(dst, src, isVecDeq, halfBlock, pl, p.dstBlkStride, p.srcBlkStride, p.dstRepStride, p.srcRepStride, file, line);
  }
}
}  // namespace sim

template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
inline void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint32_t count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    CastDequant<PrimT<T>, PrimT<U>, isVecDeq, halfBlock>(sim::lite(dst), sim::lite(src), count);
  } else {
    static_assert(sim::cast_dequant_ok<T, U>,
                  "CastDequant: unsupported (dst, src) data types (int32_t -> half, int16_t -> int8_t, int16_t -> uint8_t)");
    if constexpr (std::is_same_v<U, std::int32_t>) {
      const float sc = sim::deq_half_scale();
      sim::unary_count("CastDequant", dst, src, count, kCostSimple,
                       [sc](U a) -> T { return sim::cast_elem<half, std::int32_t>(a, RoundMode::CAST_RINT, sc); }, file, line);
    } else {
      if (count == 0) return;
      const sim::Plan pl = sim::count_plan(count, 128);
      sim::cast_dequant_b8(dst, src, isVecDeq, halfBlock, pl, 1, 1, 8, 8, file, line);
    }
  }
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
inline void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint64_t mask[], sim::RepeatArg repeatTime,
                        const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    CastDequant<PrimT<T>, PrimT<U>, isSetMask, isVecDeq, halfBlock>(sim::lite(dst), sim::lite(src), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::cast_dequant_ok<T, U>,
                  "CastDequant: unsupported (dst, src) data types (int32_t -> half, int16_t -> int8_t, int16_t -> uint8_t)");
    sim::cast_dequant_mask(dst, src, isSetMask, isVecDeq, halfBlock, mask, 0, repeatTime.value, repeatParams, file, line);
  }
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
inline void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::int32_t mask, sim::RepeatArg repeatTime,
                        const UnaryRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    CastDequant<PrimT<T>, PrimT<U>, isSetMask, isVecDeq, halfBlock>(sim::lite(dst), sim::lite(src), mask, repeatTime, repeatParams);
  } else {
    static_assert(sim::cast_dequant_ok<T, U>,
                  "CastDequant: unsupported (dst, src) data types (int32_t -> half, int16_t -> int8_t, int16_t -> uint8_t)");
    sim::cast_dequant_mask(dst, src, isSetMask, isVecDeq, halfBlock, nullptr, static_cast<std::uint64_t>(mask), repeatTime.value,
                           repeatParams, file, line);
  }
}

// CastDeq: the name of CastDequant before CANN 8.5 (the same instruction, forms and template parameters).
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint32_t count) {
  CastDequant<T, U, isVecDeq, halfBlock>(dst, src, count);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::uint64_t mask[], sim::RepeatArg repeatTime,
                    const UnaryRepeatParams& repeatParams) {
  CastDequant<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime, repeatParams);
}
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::int32_t mask, sim::RepeatArg repeatTime,
                    const UnaryRepeatParams& repeatParams) {
  CastDequant<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask, repeatTime, repeatParams);
}

}  // namespace AscendC
