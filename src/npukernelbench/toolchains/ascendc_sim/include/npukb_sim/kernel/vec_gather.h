// npukb_sim/kernel/vec_gather.h -- the discrete-gather family: Gather (element i of dst read from src
// at byte offset srcBaseAddr + srcOffset[i]; count form, and mask/repeat forms where repeat r writes
// 256 bytes of dst dstRepStride blocks after repeat r-1 and consumes offsets r * (256 / sizeof(T)) on)
// and Gatherb (whole 32-byte blocks: block j of repeat i comes from src byte offset offset[8i + j]).
// Offsets must be aligned to the element (Gather) or to 32 bytes (Gatherb) and stay inside src. The
// pages do not support dst overlapping src; hardware-checked kernels gather in place all the same
// (broadcasting a row's value over its block), so an overlap is a kernel warning and the instruction
// reads every source byte before it writes. GatherMask is in gather_mask.h. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_drivers.h"

namespace AscendC {
namespace sim {
template <typename T>
constexpr bool gather_types = one_of<T, std::int16_t, std::uint16_t, half, bfloat16_t, std::int32_t, std::uint32_t, float>;

// Byte offset of src element `i`'s gathered value, checked against src.
template <typename T>
inline std::uint64_t gather_src_offset(const char* api, std::uint32_t base, std::uint32_t off, std::uint64_t i, std::uint64_t sbytes,
                                       std::uint32_t align, const char* file, int line) {
  const std::uint64_t o = static_cast<std::uint64_t>(base) + off;
  if (o % align != 0 || o + (align == 32 ? 32 : sizeof(T)) > sbytes) {
    npukb::violation(api, "offset[" + npukb::kern::num(static_cast<long long>(i)) + "] = " +
                     npukb::kern::num(static_cast<long long>(o)) + " bytes is not " + npukb::kern::num(align) +
                     "-byte aligned or lies outside the src tensor (" + npukb::kern::num(static_cast<long long>(sbytes)) +
                     " bytes)", file, line);
  }
  return o;
}

// The bytes Gather / Gatherb read: src itself, or a snapshot of it when dst overlaps it (a warning).
template <typename T>
inline const std::uint8_t* gather_source(const char* api, const LocalTensor<T>& dst, std::uint64_t dbytes,
                                         const LocalTensor<T>& src, std::uint64_t sbytes, std::vector<std::uint8_t>& copy,
                                         const char* file, int line) {
  const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
  if (!overlaps(dst, dbytes, src, sbytes)) return s;
  npukb::warning(api, "dst overlaps src, which the documentation does not support (simulated as if every source "
                 "element were read before the first write)", file, line);
  copy.assign(s, s + sbytes);
  return copy.data();
}

template <typename T>
inline void gather_mask_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint32_t>& srcOffset,
                            std::uint32_t srcBaseAddr, const Plan& pl, std::uint32_t dstRepStride, const char* file, int line) {
  const char* api = "Gather";
  if (pl.empty()) return;
  const Opnd od = opnd(dst, 1, dstRepStride);
  const std::uint64_t ed = od.extent(pl);
  std::uint64_t noff = 0;
  pl.each([&](std::uint32_t r, std::uint32_t k) { noff = std::max<std::uint64_t>(noff, static_cast<std::uint64_t>(r) * pl.per_rep + k + 1); });
  const std::uint64_t sbytes = static_cast<std::uint64_t>(src.GetSize()) * sizeof(T);
  check_local(api, "dst", dst, ed, true, file, line);
  check_local(api, "src", src, 0, true, file, line);
  check_local(api, "srcOffset", srcOffset, noff * 4, true, file, line);
  std::vector<std::uint8_t> copy;
  const std::uint8_t* s = gather_source(api, dst, ed, src, sbytes, copy, file, line);
  pl.each([&](std::uint32_t r, std::uint32_t k) {
    const std::uint64_t i = static_cast<std::uint64_t>(r) * pl.per_rep + k;
    const std::uint64_t o = gather_src_offset<T>(api, srcBaseAddr, srcOffset.ptr()[i], i, sbytes, sizeof(T), file, line);
    st<T>(od.p + od.off(r, k), ld<T>(s + o));
  });
  const npukb::kern::Span sp[2] = {vspan(src, sbytes), vspan(srcOffset, noff * 4)};
  const npukb::kern::Span dp = vspan(dst, ed);
  vec_cost(kCostSimple * 4, pl.repeats, sp, 2, &dp, 1);
}
}  // namespace sim

// ---- Gather: dst[i] = *(src + srcBaseAddr + srcOffset[i]) (offsets in bytes) ----------------------
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint32_t>& srcOffset,
                   const std::uint32_t srcBaseAddr, const std::uint32_t count) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Gather<PrimT<T>>(sim::lite(dst), sim::lite(src), srcOffset, srcBaseAddr, count);
  } else {
    static_assert(sim::gather_types<T>, "Gather: unsupported data type (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float)");
    if (count == 0) return;
    const std::uint64_t sbytes = static_cast<std::uint64_t>(src.GetSize()) * sizeof(T);
    sim::check_local("Gather", "dst", dst, static_cast<std::uint64_t>(count) * sizeof(T), true, file, line);
    sim::check_local("Gather", "src", src, 0, true, file, line);
    sim::check_local("Gather", "srcOffset", srcOffset, static_cast<std::uint64_t>(count) * 4, true, file, line);
    std::vector<std::uint8_t> copy;
    const std::uint8_t* s = sim::gather_source("Gather", dst, static_cast<std::uint64_t>(count) * sizeof(T), src, sbytes,
                                               copy, file, line);
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint64_t o = sim::gather_src_offset<T>("Gather", srcBaseAddr, srcOffset.ptr()[i], i, sbytes, sizeof(T), file, line);
      dst.ptr()[i] = sim::ld<T>(s + o);
    }
    sim::count_plan(count, 256 / sizeof(T));
    const npukb::kern::Span sp[2] = {sim::vspan(src, sbytes), sim::vspan(srcOffset, count * 4ull)};
    const npukb::kern::Span dp = sim::vspan(dst, count * sizeof(T));
    sim::vec_cost(kCostSimple * 4, static_cast<std::uint32_t>((count * sizeof(T) + 255) / 256), sp, 2, &dp, 1);
  }
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint32_t>& srcOffset,
                   const std::uint32_t srcBaseAddr, const std::uint64_t mask[], sim::RepeatArg repeatTime,
                   const std::uint16_t dstRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Gather<PrimT<T>>(sim::lite(dst), sim::lite(src), srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride);
  } else {
    static_assert(sim::gather_types<T>, "Gather: unsupported data type (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float)");
    const sim::Plan pl = sim::make_plan("Gather", true, mask, 0, repeatTime.value, 256 / sizeof(T), file, line);
    sim::gather_mask_run(dst, src, srcOffset, srcBaseAddr, pl, dstRepStride, file, line);
  }
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint32_t>& srcOffset,
                   const std::uint32_t srcBaseAddr, const std::uint64_t mask, sim::RepeatArg repeatTime,
                   const std::uint16_t dstRepStride) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Gather<PrimT<T>>(sim::lite(dst), sim::lite(src), srcOffset, srcBaseAddr, mask, repeatTime, dstRepStride);
  } else {
    static_assert(sim::gather_types<T>, "Gather: unsupported data type (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float)");
    const sim::Plan pl = sim::make_plan("Gather", true, nullptr, mask, repeatTime.value, 256 / sizeof(T), file, line);
    sim::gather_mask_run(dst, src, srcOffset, srcBaseAddr, pl, dstRepStride, file, line);
  }
}

// ---- Gatherb: 32-byte blocks gathered by byte offsets ---------------------------------------------
template <typename T>
inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint32_t>& offset,
                    sim::RepeatArg repeatTime, const GatherRepeatParams& repeatParams) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    Gatherb<PrimT<T>>(sim::lite(dst), sim::lite(src), offset, repeatTime, repeatParams);
  } else {
    static_assert(sim::one_of<T, std::uint16_t, std::uint32_t>, "Gatherb: unsupported data type (uint16_t, uint32_t)");
    const char* api = "Gatherb";
    sim::check_repeat(api, repeatTime.value, file, line);
    const std::uint32_t reps = static_cast<std::uint32_t>(repeatTime.value);
    if (reps == 0) return;
    const std::uint32_t blk = repeatParams.dstBlkStride == 0 ? 1u : repeatParams.dstBlkStride;  // 0 acts as 1 (documented)
    const std::uint64_t ed = (static_cast<std::uint64_t>(reps - 1) * repeatParams.dstRepStride + 7ull * blk + 1) * 32;
    const std::uint64_t sbytes = static_cast<std::uint64_t>(src.GetSize()) * sizeof(T);
    sim::check_local(api, "dst", dst, ed, true, file, line);
    sim::check_local(api, "src", src, 0, true, file, line);
    sim::check_local(api, "offset", offset, static_cast<std::uint64_t>(reps) * 8 * 4, true, file, line);
    std::vector<std::uint8_t> copy;
    const std::uint8_t* s = sim::gather_source(api, dst, ed, src, sbytes, copy, file, line);
    std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
    for (std::uint32_t i = 0; i < reps; ++i) {
      for (std::uint32_t j = 0; j < 8; ++j) {
        const std::uint64_t o = sim::gather_src_offset<T>(api, 0, offset.ptr()[i * 8 + j], i * 8 + j, sbytes, 32, file, line);
        std::memcpy(d + (static_cast<std::uint64_t>(i) * repeatParams.dstRepStride + static_cast<std::uint64_t>(j) * blk) * 32, s + o, 32);
      }
    }
    const npukb::kern::Span sp[2] = {sim::vspan(src, sbytes), sim::vspan(offset, reps * 32ull)};
    const npukb::kern::Span dp = sim::vspan(dst, ed);
    sim::vec_cost(kCostSimple * 4, reps, sp, 2, &dp, 1);
  }
}

}  // namespace AscendC
