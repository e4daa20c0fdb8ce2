// npukb_sim/kernel/gather_mask.h -- GatherMask: compacts the elements of src0 selected by a bit pattern
// (a user pattern tensor or one of the built-in patterns 1..7) into dst and reports how many were kept.
//
// Model (Atlas A2, as documented publicly):
// - reduceMode false (normal): repeatTimes repeats of 256 bytes each; `mask` is ignored.
// - reduceMode true (counter, configuration one on A2): each repeat handles `mask` elements; repeatTimes
//   repeats. The API leaves the vector unit in normal mode afterwards.
// - Element k of repeat r of src0 lies at block (k / elemsPerBlock) * src0BlockStride + r * src0RepeatStride
//   (blocks of 32 bytes). The user pattern of repeat r starts src1RepeatStride blocks after the pattern of
//   repeat r - 1 and is consumed bit by bit (bit k = element k, LSB first) inside the repeat; the built-in
//   patterns are the same for every repeat.
// - The kept elements are written contiguously from dst[0] across all repeats; rsvdCnt = their number.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

enum class GatherMaskMode : std::uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
constexpr GatherMaskMode defaultGahterMaskMode = defaultGatherMaskMode;  // spelling used by older CANN releases

struct GatherMaskParams {
  GatherMaskParams() = default;
  GatherMaskParams(std::uint8_t src0BlockStrideIn, std::uint16_t repeatTimesIn, std::uint16_t src0RepeatStrideIn,
                   std::uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  std::uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  std::uint16_t repeatTimes = 0;
  std::uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  std::uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

namespace sim {

template <typename T>
constexpr bool gather_mask_types = one_of<T, half, bfloat16_t, std::int16_t, std::uint16_t, float, std::int32_t, std::uint32_t>;

// Built-in pattern p (1..7): is element k of a repeat kept?
inline bool builtin_bit(std::uint8_t p, std::uint32_t k) {
  switch (p) {
    case 1: return (k & 1u) == 0;
    case 2: return (k & 1u) == 1;
    case 3: case 4: case 5: case 6: return (k & 3u) == static_cast<std::uint32_t>(p - 3);
    default: return true;  // 7
  }
}

// `pattern` null: built-in pattern `builtin`; otherwise the user pattern bytes (bit k of repeat r at byte
// r * src1RepeatStride * 32 + k / 8, bit k % 8).
template <typename T>
inline void gather_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const std::uint8_t* pattern,
                        std::uint64_t pattern_bytes, std::uint8_t builtin, bool reduceMode, std::uint32_t mask,
                        const GatherMaskParams& p, std::uint64_t& rsvdCnt, const npukb::kern::Span* pattern_span,
                        const char* file, int line) {
  const char* api = "GatherMask";
  rsvdCnt = 0;
  npukb::kern::KState& s = npukb::kern::state();
  s.counter_mode = false;  // the API ends in normal mode whatever mode it was called in
  s.mask[0] = s.mask[1] = ~0ull;
  check_repeat(api, p.repeatTimes, file, line);
  const std::uint32_t per_rep_hw = 256u / sizeof(T);
  if (reduceMode && mask == 0) {
    npukb::violation(api, "mask 0 is outside [1, 2^32 - 1] in counter mode (reduceMode = true)", file, line);
  }
  const std::uint32_t reps = p.repeatTimes;
  const std::uint32_t n = reduceMode ? mask : per_rep_hw;  // elements per repeat
  if (reps == 0) return;
  const std::uint32_t esz = sizeof(T);
  const std::uint64_t p1 = static_cast<std::uint64_t>(p.src1RepeatStride) * 32u;
  if (pattern != nullptr) {
    const std::uint64_t need = static_cast<std::uint64_t>(reps - 1) * p1 + (static_cast<std::uint64_t>(n) + 7) / 8;
    if (need > pattern_bytes) {
      npukb::violation(api, "UB overflow: src1Pattern access of " + npukb::kern::num(static_cast<long long>(need)) +
                       " bytes exceeds the LocalTensor (" + npukb::kern::num(static_cast<long long>(pattern_bytes)) +
                       " bytes)", file, line);
    }
  }
  auto kept = [&](std::uint32_t r, std::uint32_t k) -> bool {
    if (pattern == nullptr) return builtin_bit(builtin, k);
    const std::uint8_t byte = pattern[r * p1 + k / 8];
    return ((byte >> (k % 8)) & 1u) != 0;
  };
  // Extent of src0: the last element of the last repeat, or of an earlier one when strides overlap backwards.
  std::uint64_t es = 0;
  for (std::uint32_t r = 0; r < reps; ++r) {
    const std::uint64_t e = (elem_off(r, n - 1, esz, p.src0BlockStride, p.src0RepeatStride) + 1) * esz;
    if (e > es) es = e;
  }
  check_local(api, "src0", src0, es, true, file, line);
  const std::uint8_t* sp = reinterpret_cast<const std::uint8_t*>(src0.ptr());
  std::vector<T> out;
  out.reserve(static_cast<std::size_t>(reps) * n);
  for (std::uint32_t r = 0; r < reps; ++r) {
    for (std::uint32_t k = 0; k < n; ++k) {
      if (kept(r, k)) out.push_back(ld<T>(sp + elem_off(r, k, esz, p.src0BlockStride, p.src0RepeatStride) * esz));
    }
  }
  const std::uint64_t ed = out.size() * esz;
  if (ed != 0) {
    check_local(api, "dst", dst, ed, true, file, line);
    std::memcpy(dst.ptr(), out.data(), ed);
  } else {
    check_local(api, "dst", dst, 0, true, file, line);
  }
  rsvdCnt = out.size();
  const std::uint32_t chunks = reps * ((n * esz + 255u) / 256u);
  npukb::kern::Span srcs[2] = {vspan(src0, es), {0, 0}};
  int nsrc = 1;
  if (pattern_span != nullptr) srcs[nsrc++] = *pattern_span;
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(kCostSimple, chunks, srcs, nsrc, &dp, ed != 0 ? 1 : 0);
}

}  // namespace sim

// User pattern: U is uint16_t for 16-bit T and uint32_t for 32-bit T.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const std::uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       std::uint64_t& rsvdCnt) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T, U>) {  // tensors of a TensorTrait: the LiteType form
    GatherMask<PrimT<T>, PrimT<U>, mode>(sim::lite(dst), sim::lite(src0), sim::lite(src1Pattern), reduceMode, mask, gatherMaskParams, rsvdCnt);
  } else {
    static_assert(sim::gather_mask_types<T>,
                  "GatherMask: unsupported data type (half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t)");
    static_assert((sizeof(T) == 2 && std::is_same_v<U, std::uint16_t>) || (sizeof(T) == 4 && std::is_same_v<U, std::uint32_t>),
                  "GatherMask: src1Pattern must be LocalTensor<uint16_t> for 16-bit T and LocalTensor<uint32_t> for 32-bit T");
    const std::uint64_t pbytes = static_cast<std::uint64_t>(src1Pattern.GetSize()) * sizeof(U);
    sim::check_local("GatherMask", "src1Pattern", src1Pattern, 0, true, file, line);
    const npukb::kern::Span ps = sim::vspan(src1Pattern, pbytes);
    sim::gather_mask(dst, src0, reinterpret_cast<const std::uint8_t*>(src1Pattern.ptr()), pbytes, 0, reduceMode, mask,
                     gatherMaskParams, rsvdCnt, &ps, file, line);
  }
}

// Built-in pattern 1..7 (even, odd, 1st/2nd/3rd/4th of every four, all).
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const std::uint8_t src1Pattern,
                       const bool reduceMode, const std::uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       std::uint64_t& rsvdCnt) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    GatherMask<PrimT<T>, mode>(sim::lite(dst), sim::lite(src0), src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt);
  } else {
    static_assert(sim::gather_mask_types<T>,
                  "GatherMask: unsupported data type (half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t)");
    if (src1Pattern < 1 || src1Pattern > 7) {
      npukb::violation("GatherMask", "built-in src1Pattern " + npukb::kern::num(static_cast<long long>(src1Pattern)) +
                       " is outside [1, 7]", file, line);
    }
    sim::gather_mask(dst, src0, nullptr, 0, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt, nullptr, file, line);
  }
}

}  // namespace AscendC
