// npukb_sim/kernel/trans_data.h -- TransDataTo5HD (the vnchwconv instruction): per repeat, 16 source
// 32-byte blocks (one address each) are transposed into 16 destination blocks. 16-bit data: destination
// block j holds element j of every source block. 32-bit data: element j of the 16 source blocks fills
// destination blocks 2j (sources 0..7) and 2j+1 (sources 8..15). 8-bit data: element j of the 16 source
// blocks fills half a destination block (low or high half of the 32 elements per srcHighHalf /
// dstHighHalf). Repeat r starts r * dstRepStride / r * srcRepStride 32-byte blocks after the listed
// addresses; with repeatTimes = 1 the single repeat starts one stride after them (documented: set the
// strides to 0 to use the listed addresses). All 16 source blocks are read before any destination is
// written.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

constexpr std::int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
  TransDataTo5HDParams() = default;
  TransDataTo5HDParams(bool dstHighHalfIn, bool srcHighHalfIn, std::uint8_t repeatTimesIn, std::uint16_t dstRepStrideIn,
                       std::uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn), dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  std::uint8_t repeatTimes = 1;
  std::uint16_t dstRepStride = 0;
  std::uint16_t srcRepStride = 0;
};

namespace sim {
// UB byte offset of a raw address taken from an address list (defined in intrinsics.h's helpers' spirit).
inline std::uint32_t list_offset(std::uint64_t a, const char* api, const char* what, const char* file, int line) {
  const std::uint8_t* ub = npukb::block().ub;
  const auto* q = reinterpret_cast<const std::uint8_t*>(a);
  if (ub == nullptr || q < ub || q + 32 > ub + npukb::kUbBytes) {
    npukb::violation(api, std::string(what) + " is not a 32-byte block inside the unified buffer", file, line);
  }
  const auto off = static_cast<std::uint32_t>(q - ub);
  if (off % 32 != 0) {
    npukb::violation(api, std::string("unaligned UB address: ") + what + " at UB offset " + npukb::kern::num(off) +
                     " is not 32-byte aligned", file, line);
  }
  return off;
}

// dst/src: 16 addresses each (raw UB addresses as integers); esz: element size in bytes.
inline void trans_5hd(const std::uint64_t* dst, const std::uint64_t* src, std::uint32_t esz, const TransDataTo5HDParams& p,
                      const char* file, int line) {
  const char* api = "TransDataTo5HD";
  std::uint8_t* ub = npukb::block().ub;
  constexpr auto kEnd = static_cast<std::uint32_t>(npukb::kUbBytes);
  npukb::kern::Span spans[2] = {{kEnd, 0}, {kEnd, 0}};
  for (std::uint32_t rr = 0; rr < p.repeatTimes; ++rr) {
    const std::uint32_t r = p.repeatTimes == 1 ? 1u : rr;
    std::uint8_t in[16][32];
    std::uint32_t out_off[16];
    for (int i = 0; i < 16; ++i) {
      const std::uint32_t off = list_offset(src[i] + static_cast<std::uint64_t>(r) * p.srcRepStride * 32u, api,
                                            "a source address", file, line);
      std::memcpy(in[i], ub + off, 32);
      spans[0].begin = std::min(spans[0].begin, off);
      spans[0].end = std::max(spans[0].end, off + 32);
    }
    for (int j = 0; j < 16; ++j) {
      out_off[j] = list_offset(dst[j] + static_cast<std::uint64_t>(r) * p.dstRepStride * 32u, api,
                               "a destination address", file, line);
      spans[1].begin = std::min(spans[1].begin, out_off[j]);
      spans[1].end = std::max(spans[1].end, out_off[j] + 32);
    }
    if (esz == 2) {
      for (int j = 0; j < 16; ++j)
        for (int i = 0; i < 16; ++i) std::memcpy(ub + out_off[j] + 2 * i, in[i] + 2 * j, 2);
    } else if (esz == 4) {
      for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 16; ++i) std::memcpy(ub + out_off[2 * j + i / 8] + 4 * (i % 8), in[i] + 4 * j, 4);
    } else {
      const int sh = p.srcHighHalf ? 16 : 0, dh = p.dstHighHalf ? 16 : 0;
      for (int j = 0; j < 16; ++j)
        for (int i = 0; i < 16; ++i) ub[out_off[j] + dh + i] = in[i][sh + j];
    }
  }
  if (p.repeatTimes == 0) return;
  vec_cost(kCostSimple, p.repeatTimes, &spans[0], 1, &spans[1], 1);
}

template <typename T>
constexpr bool trans_5hd_types = one_of<T, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, half, std::int32_t,
                                        std::uint32_t, float>;
}  // namespace sim

template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams& params) { NPUKB_CALLER;
  static_assert(sim::trans_5hd_types<T>, "TransDataTo5HD: unsupported data type");
  std::uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = dstList[i].GetPhyAddr();
    s[i] = srcList[i].GetPhyAddr();
  }
  sim::trans_5hd(d, s, sizeof(T), params, file, line);
}
template <typename T>
inline void TransDataTo5HD(std::uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], std::uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams& params) { NPUKB_CALLER;
  static_assert(sim::trans_5hd_types<T>, "TransDataTo5HD: unsupported data type");
  sim::trans_5hd(dstList, srcList, sizeof(T), params, file, line);
}
// dst / src: LocalTensor<uint64_t> holding the 16 addresses each (GetPhyAddr values), one after another.
template <typename T>
inline void TransDataTo5HD(const LocalTensor<std::uint64_t>& dst, const LocalTensor<std::uint64_t>& src,
                           const TransDataTo5HDParams& nchwconvParams) { NPUKB_CALLER;
  static_assert(sim::trans_5hd_types<T>, "TransDataTo5HD: unsupported data type");
  sim::check_local("TransDataTo5HD", "dst", dst, 16 * 8, true, file, line);
  sim::check_local("TransDataTo5HD", "src", src, 16 * 8, true, file, line);
  std::uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = dst.ptr()[i];
    s[i] = src.ptr()[i];
  }
  sim::trans_5hd(d, s, sizeof(T), nchwconvParams, file, line);
}
// The implementation entry that real kernels also call directly with raw __ubuf__ address lists.
template <typename T>
inline void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE], __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams& params) { NPUKB_CALLER;
  static_assert(sim::trans_5hd_types<T>, "TransDataTo5HD: unsupported data type");
  std::uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = reinterpret_cast<std::uint64_t>(dstList[i]);
    s[i] = reinterpret_cast<std::uint64_t>(srcList[i]);
  }
  sim::trans_5hd(d, s, sizeof(T), params, file, line);
}

}  // namespace AscendC
