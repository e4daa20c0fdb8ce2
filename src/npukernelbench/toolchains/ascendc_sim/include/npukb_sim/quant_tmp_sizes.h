// npukb_sim/quant_tmp_sizes.h -- the simulator's temporary-buffer sizes of the quantization library
// APIs (AscendQuant, AscendDequant, AscendAntiQuant; the host figures of Quantize, Dequantize and
// AntiQuantize): what the host Get*MaxMinTmpSize and
// Get*TmpBufferFactorSize helpers report and what the kernel APIs check a sharedTmpBuffer against.
// Part of the ascendc-sim clean-room simulator; included by npukb_sim/lib_tmp_sizes.h.
//
// The real formulas are not public. The figures follow the instruction sequences the API pages
// describe; the factor form (maxLiveNodeCount, extraBuf) is the same figure: a work buffer of
// maxLiveNodeCount * typeSize bytes per element plus extraBuf. docs/simulator.md lists them.
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_lib {


// AscendQuant: two working copies per element in the source's width (the half source or scaled value,
// the broadcast scale / offset). The minimum is one 256-byte repeat of source elements per pass.
constexpr uint32_t kAscendQuantLiveNodes = 2;
constexpr uint32_t AscendQuantMaxBytes(uint64_t count, uint32_t type_size) {
  return AlignUp(static_cast<uint32_t>(count * kAscendQuantLiveNodes * type_size), kBlockBytes);
}
constexpr uint32_t AscendQuantMinBytes(uint64_t count, uint32_t type_size) {
  return AscendQuantMaxBytes(count, type_size) < kAscendQuantLiveNodes * kRepeatBytes
             ? AscendQuantMaxBytes(count, type_size)
             : kAscendQuantLiveNodes * kRepeatBytes;
}

// AscendDequant over [m, n] int32 rows: the fp32 copy of the scale row once (extraBuf) and the fp32
// copy of each source row (one node of 4 bytes per element). The minimum holds one row.
constexpr uint32_t AscendDequantExtraBytes(uint32_t n) { return AlignUp(n * kFloatBytes, kBlockBytes); }
constexpr uint32_t AscendDequantMinBytes(uint32_t n) { return 2 * AscendDequantExtraBytes(n); }
constexpr uint32_t AscendDequantMaxBytes(uint32_t m, uint32_t n) {
  return AscendDequantExtraBytes(n) + (m == 0 ? 1 : m) * AscendDequantExtraBytes(n);
}

// AscendAntiQuant: per source element the half intermediate (2 bytes), or for a bfloat16_t output
// the two fp32 intermediates of the bf16 path (8 bytes). The minimum holds one row of the source's
// last dimension, the maximum the whole source.
constexpr uint32_t AscendAntiQuantNodeBytes(bool bf16_output) { return bf16_output ? 8 : 2; }
constexpr uint32_t AscendAntiQuantMinBytes(uint64_t row, bool bf16_output) {
  return AlignUp(static_cast<uint32_t>(row * AscendAntiQuantNodeBytes(bf16_output)), kBlockBytes);
}
constexpr uint32_t AscendAntiQuantMaxBytes(uint64_t count, bool bf16_output) {
  return AlignUp(static_cast<uint32_t>(count * AscendAntiQuantNodeBytes(bf16_output)), kBlockBytes);
}

// Quantize / Dequantize / AntiQuantize: Ascend 950 kernel APIs (their pages do not list the A2 / A3
// series) whose host helpers the simulator still answers. Their pages describe the computations of
// AscendQuant / AscendDequant / AscendAntiQuant, and the helpers report those APIs' figures above; an
// AntiQuantize float output takes the fp32 path of a bfloat16_t one.
constexpr uint32_t AntiQuantizeNodeBytes(bool half_output) { return AscendAntiQuantNodeBytes(!half_output); }

}  // namespace npukb_lib
