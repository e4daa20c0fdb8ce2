// npukb_sim/kernel/lib_filter.h -- the data-filter library of the Atlas A2 / A3 training series: the
// high-level Select (a bytes mask choosing between a tensor and a scalar, SelectWithBytesMaskShapeInfo;
// SelectWithBytesMask of compare_select.h is its older name) and DropOut (byte and bit masks,
// DropOutShapeInfo). Clean-room part of ascendc-sim, written from the API pages.
//
// Select: over [firstAxis, srcLastAxis] (mask rows of maskLastAxis >= srcLastAxis elements, the extra
// ones ignored), dst = mask == 0 ? src0 : src1, one of them a scalar. With isReuseMask and longer mask
// rows the page's first step gathers the mask to [firstAxis, srcLastAxis] in place: the simulator does
// too, so a kernel that reads the mask afterwards sees what the device leaves there.
// DropOut: dst = kept ? src * (1 / keepProb) : 0 (the page's Muls by the reciprocal, rounded to T), with
// the mode from dropOutMode or, for 0, from the shape: maskLastAxis >= srcLastAxis is the byte mode (one
// uint8_t per element, nonzero keeps; longer rows carry dirty data), otherwise the bit mode (bit i of the
// mask bytes, least significant first as the Select instruction reads a bit mask, keeps element i; rows
// of maskLastAxis bytes of which srcLastAxis / 8 are valid when maskLastAxis * 8 > srcLastAxis). The
// dirty-data modes compact the mask in place like the device's GatherMask step. dst may be src.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "npukb_sim/kernel/compare_select.h"
#include "npukb_sim/kernel/lib_support.h"
#include "npukb_sim/lib_tmp_sizes.h"

namespace AscendC {

struct DropOutShapeInfo {
  DropOutShapeInfo() {}
  std::uint32_t firstAxis = 0;
  std::uint32_t srcLastAxis = 0;
  std::uint32_t maskLastAxis = 0;
};

namespace sim {

template <typename U>
constexpr bool select_mask_types =
    one_of<U, bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t>;

// src: the tensor operand (src0, or src1 when tensor_is_src1); scalar: the other one.
template <typename T, typename U, bool isReuseMask>
inline void lib_select(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool tensor_is_src1, T scalar,
                       const LocalTensor<U>& mask, const LocalTensor<std::uint8_t>& tmp,
                       const SelectWithBytesMaskShapeInfo& info, const char* file, int line) {
  const char* api = "Select";
  if (info.srcLastAxis * sizeof(T) % 32 != 0) {
    npukb::violation(api, "info.srcLastAxis " + npukb::kern::num(info.srcLastAxis) +
                     " is not a whole number of 32-byte blocks (the source's last axis must be 32-byte aligned)", file, line);
  }
  if (info.maskLastAxis * sizeof(U) % 32 != 0 || info.maskLastAxis % 16 != 0 || info.maskLastAxis < info.srcLastAxis) {
    npukb::violation(api, "info.maskLastAxis " + npukb::kern::num(info.maskLastAxis) + " must be 32-byte aligned, a "
                     "multiple of 16 elements and at least srcLastAxis " + npukb::kern::num(info.srcLastAxis), file, line);
  }
  const std::uint64_t n = static_cast<std::uint64_t>(info.firstAxis) * info.srcLastAxis;
  const std::uint64_t mn = static_cast<std::uint64_t>(info.firstAxis) * info.maskLastAxis;
  if (n == 0) return;
  check_local(api, "src", src, n * sizeof(T), true, file, line);
  check_local(api, "dst", dst, n * sizeof(T), true, file, line);
  check_local(api, "mask", mask, mn * sizeof(U), true, file, line);
  const std::uint64_t need =
      npukb_lib::SelectMinTmpBytes(info.firstAxis, info.srcLastAxis, info.maskLastAxis, sizeof(U), isReuseMask);
  check_tmp_buffer(api, tmp, need, "Select needs (GetSelectMaxMinTmpSize's minimum)", file, line);
  check_no_overlap(api, "sharedTmpBuffer", tmp, need, "src", src, n * sizeof(T), file, line);
  check_no_overlap(api, "sharedTmpBuffer", tmp, need, "dst", dst, n * sizeof(T), file, line);
  check_no_overlap(api, "sharedTmpBuffer", tmp, need, "mask", mask, mn * sizeof(U), file, line);
  const std::vector<T> in(src.ptr(), src.ptr() + n);   // dst may be the source
  std::vector<T> out(n);
  std::vector<std::uint8_t> gathered(n * sizeof(U));   // the mask rows cut to srcLastAxis (bytes: U may be bool)
  for (std::uint64_t r = 0; r < info.firstAxis; ++r) {
    for (std::uint64_t c = 0; c < info.srcLastAxis; ++c) {
      const std::uint64_t i = r * info.srcLastAxis + c;
      const U m = mask.ptr()[r * info.maskLastAxis + c];
      std::memcpy(gathered.data() + i * sizeof(U), &m, sizeof(U));
      const bool pick1 = m != U(0);
      out[i] = pick1 == tensor_is_src1 ? in[i] : scalar;
    }
  }
  std::memcpy(dst.ptr(), out.data(), n * sizeof(T));
  if (isReuseMask && info.maskLastAxis != info.srcLastAxis) std::memcpy(mask.ptr(), gathered.data(), n * sizeof(U));
  const npukb::kern::Span sp[2] = {vspan(src, n * sizeof(T)), vspan(mask, mn * sizeof(U))};
  const npukb::kern::Span dp = vspan(dst, n * sizeof(T));
  lib_cost(info.maskLastAxis != info.srcLastAxis ? 2 : 1, 3 + (info.maskLastAxis != info.srcLastAxis ? 1 : 0),
           kLibSimple * 4, n * sizeof(T) / 4, sp, 2, &dp, 1);
}

}  // namespace sim

template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1, const LocalTensor<U>& mask,
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float>, "Select: unsupported data type (half, float)");
  static_assert(sim::select_mask_types<U>,
                "Select: unsupported mask data type (bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t)");
  sim::lib_select<T, U, isReuseMask>(dst, src0, false, src1, mask, sharedTmpBuffer, info, file, line);
}
template <typename T, typename U, bool isReuseMask = true>
inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1, const LocalTensor<U>& mask,
                   const LocalTensor<std::uint8_t>& sharedTmpBuffer, const SelectWithBytesMaskShapeInfo& info) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float>, "Select: unsupported data type (half, float)");
  static_assert(sim::select_mask_types<U>,
                "Select: unsupported mask data type (bool, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t)");
  sim::lib_select<T, U, isReuseMask>(dst, src1, true, src0, mask, sharedTmpBuffer, info, file, line);
}

// ---- DropOut -------------------------------------------------------------------------------------
namespace sim {

inline std::uint32_t dropout_mode(std::uint32_t given, const DropOutShapeInfo& info) {
  if (given != 0) return given;
  if (info.maskLastAxis >= info.srcLastAxis) return info.maskLastAxis == info.srcLastAxis ? 2 : 1;
  return info.maskLastAxis * 8 == info.srcLastAxis ? 3 : 4;
}

template <typename T>
inline void dropout_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<std::uint8_t>& mask,
                        const LocalTensor<std::uint8_t>* tmp, float keepProb, const DropOutShapeInfo& info,
                        std::uint32_t given_mode, const char* file, int line) {
  const char* api = "DropOut";
  if (given_mode > 4) {
    npukb::violation(api, "dropOutMode " + npukb::kern::num(given_mode) + " is not 0 (inferred) or 1 to 4", file, line);
  }
  if (!(keepProb > 0.0f && keepProb < 1.0f)) {
    npukb::violation(api, "keepProb " + std::to_string(keepProb) + " is outside (0, 1)", file, line);
  }
  if (info.firstAxis == 0 || info.srcLastAxis == 0 || info.maskLastAxis == 0) {
    npukb::violation(api, "info: firstAxis, srcLastAxis and maskLastAxis must be greater than 0", file, line);
  }
  const std::uint32_t mode = dropout_mode(given_mode, info);
  const bool bit = mode >= 3, dirty = mode == 1 || mode == 4;
  const std::uint32_t valid = bit ? info.srcLastAxis / 8 : info.srcLastAxis;   // valid mask elements per row
  if (bit && info.srcLastAxis % 8 != 0) {
    npukb::violation(api, "the bit mode needs srcLastAxis " + npukb::kern::num(info.srcLastAxis) +
                     " to be a multiple of 8 (one mask byte per 8 elements)", file, line);
  }
  if (mode == 2 && info.maskLastAxis != info.srcLastAxis) {
    npukb::violation(api, "dropOutMode 2 (byte mode, no dirty data) needs maskLastAxis = srcLastAxis", file, line);
  }
  if (mode == 3 && info.maskLastAxis * 8 != info.srcLastAxis) {
    npukb::violation(api, "dropOutMode 3 (bit mode, no dirty data) needs maskLastAxis * 8 = srcLastAxis", file, line);
  }
  if (dirty && (info.maskLastAxis < valid || valid % 2 != 0)) {
    npukb::violation(api, "with dirty mask data the mask rows (maskLastAxis " + npukb::kern::num(info.maskLastAxis) +
                     ") must hold the " + npukb::kern::num(valid) + " valid mask elements of a row, an even number", file,
                     line);
  }
  if (mode == 4 && info.srcLastAxis * sizeof(T) % 32 != 0) {
    npukb::violation(api, "the bit mode with dirty mask data needs srcLastAxis 32-byte aligned", file, line);
  }
  const std::uint64_t n = static_cast<std::uint64_t>(info.firstAxis) * info.srcLastAxis;
  const std::uint64_t mask_bytes = dirty ? static_cast<std::uint64_t>(info.firstAxis) * info.maskLastAxis
                                         : (bit ? (n + 7) / 8 : n);
  check_local(api, "srcLocal", src, n * sizeof(T), true, file, line);
  check_local(api, "dstLocal", dst, n * sizeof(T), true, file, line);
  check_local(api, "maskLocal", mask, mask_bytes, true, file, line);
  const std::uint64_t need = npukb_lib::DropOutRowBytes(info.srcLastAxis, sizeof(T));
  if (tmp != nullptr) {
    check_tmp_buffer(api, *tmp, need, "DropOut needs (GetDropOutMaxMinTmpSize's minimum)", file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "srcLocal", src, n * sizeof(T), file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "dstLocal", dst, n * sizeof(T), file, line);
    check_no_overlap(api, "sharedTmpBuffer", *tmp, need, "maskLocal", mask, mask_bytes, file, line);
  } else {
    check_framework_tmp(api, need, "GetDropOutMaxMinTmpSize's minimum", file, line);
  }
  const std::uint8_t* m = mask.ptr();
  const T scale = static_cast<T>(1.0f / keepProb);
  std::vector<T> out(n);
  std::vector<std::uint8_t> cleaned;
  for (std::uint64_t r = 0; r < info.firstAxis; ++r) {
    const std::uint8_t* row = m + (dirty ? r * info.maskLastAxis : (bit ? 0 : r * info.srcLastAxis));
    if (dirty) cleaned.insert(cleaned.end(), row, row + valid);
    for (std::uint64_t c = 0; c < info.srcLastAxis; ++c) {
      bool keep;
      if (!bit) {
        keep = row[c] != 0;
      } else {
        const std::uint64_t b = dirty ? c : r * info.srcLastAxis + c;
        keep = ((row[b / 8] >> (b % 8)) & 1u) != 0;
      }
      const std::uint64_t i = r * info.srcLastAxis + c;
      out[i] = keep ? static_cast<T>(static_cast<float>(src.ptr()[i]) * static_cast<float>(scale)) : static_cast<T>(0);
    }
  }
  std::memcpy(dst.ptr(), out.data(), n * sizeof(T));
  if (dirty) std::memcpy(mask.ptr(), cleaned.data(), cleaned.size());   // the GatherMask step leaves the mask compacted
  const npukb::kern::Span sp[2] = {vspan(src, n * sizeof(T)), vspan(mask, mask_bytes)};
  const npukb::kern::Span dp = vspan(dst, n * sizeof(T));
  lib_cost(info.firstAxis, (dirty ? 3 : 2) + (bit ? 0 : 2), kLibSimple * 3, n * sizeof(T) / 4, sp, 2, &dp, 1);
}

}  // namespace sim

template <typename T, bool isInitBitMode = false, std::uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<std::uint8_t>& maskLocal,
                    const float keepProb, const DropOutShapeInfo& info) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float>, "DropOut: unsupported data type (half, float)");
  sim::dropout_run(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info, dropOutMode, file, line);
}
template <typename T, bool isInitBitMode = false, std::uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const LocalTensor<std::uint8_t>& maskLocal,
                    const LocalTensor<std::uint8_t>& sharedTmpBuffer, const float keepProb, const DropOutShapeInfo& info) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, float>, "DropOut: unsupported data type (half, float)");
  sim::dropout_run(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info, dropOutMode, file, line);
}

}  // namespace AscendC
