// npukb_sim/norm_tmp_sizes.h -- the simulator's temporary-buffer sizes of the normalization library
// APIs (LayerNorm, LayerNormGrad, LayerNormGradBeta, RmsNorm, BatchNorm, DeepNorm, Normalize,
// WelfordUpdate, WelfordFinalize, GroupNorm): what the host Get*MaxMinTmpSize helpers report, what the
// host tiling functions plan with and what the kernel APIs check a sharedTmpBuffer against. Part of
// the ascendc-sim clean-room simulator; included by npukb_sim/lib_tmp_sizes.h.
//
// The real library's formulas are not public. These figures follow the computation the API pages
// describe: fp32 work rows (one per live intermediate, two more for the fp32 copy of a 16-bit source)
// plus one 32-byte reduction block per statistic. The minimum holds one row (or one group, one block
// of columns) per pass, the maximum the whole input in one pass. docs/simulator.md lists them.
#pragma once
#include <cstdint>

#include "npukb_sim/lib_tmp_sizes.h"

namespace npukb_lib {

// One fp32 row of n elements, rounded up to whole 32-byte blocks.
constexpr uint32_t Fp32Row(uint32_t n) { return AlignUp(n * kFloatBytes, kBlockBytes); }

// ---- LayerNorm [B, S, H] (and DeepNorm, which runs the same computation) -------------------------
// Live fp32 rows: x (or its fp32 copy), x - mean and the scaled output; a float source that may be
// overwritten (isReuseSource) serves as the first. Plus the mean and variance blocks.
constexpr uint32_t LayerNormWorkRows(uint32_t type_size, bool reuse_source) {
  return type_size == kFloatBytes && reuse_source ? 2 : 3;
}
constexpr uint32_t LayerNormRowBytes(uint32_t h, uint32_t type_size, bool reuse_source) {
  return LayerNormWorkRows(type_size, reuse_source) * Fp32Row(h) + 2 * kBlockBytes;
}

// ---- LayerNorm [A, R] (mean / rstd outputs) and Normalize ---------------------------------------
// x - mean and its square (plus the fp32 copy of a 16-bit source), and one reduction block.
constexpr uint32_t LayerNormRstdRowBytes(uint32_t r, uint32_t type_size) {
  return (type_size < kFloatBytes ? 3 : 2) * Fp32Row(r) + kBlockBytes;
}
// Normalize: the centred row (plus the fp32 copy of a 16-bit source) and the rstd block per row; the
// fp32 copies of 16-bit gamma and beta once.
constexpr uint32_t NormalizeRowBytes(uint32_t r, uint32_t type_size_t) {
  return (type_size_t < kFloatBytes ? 2 : 1) * Fp32Row(r) + kBlockBytes;
}
constexpr uint32_t NormalizeFixedBytes(uint32_t r, uint32_t type_size_u) {
  return type_size_u < kFloatBytes ? 2 * Fp32Row(r) : 0;
}

// ---- LayerNormGrad ------------------------------------------------------------------------------
// x1 = dy * gamma, x2 = x - mean, the products under the two sums and the pd_x accumulator (two more
// for the fp32 copies of 16-bit sources, one less when a float source may be overwritten), plus the
// pd_var, pd_mean and rstd blocks.
constexpr uint32_t LayerNormGradWorkRows(uint32_t type_size, bool reuse_source) {
  return type_size < kFloatBytes ? 6 : (reuse_source ? 3 : 4);
}
constexpr uint32_t LayerNormGradRowBytes(uint32_t h, uint32_t type_size, bool reuse_source) {
  return LayerNormGradWorkRows(type_size, reuse_source) * Fp32Row(h) + 3 * kBlockBytes;
}

// ---- LayerNormGradBeta --------------------------------------------------------------------------
// Two fp32 accumulator rows of H (gamma and beta) once, and per row dy * resForGamma (plus the fp32
// copies of 16-bit sources).
constexpr uint32_t LayerNormGradBetaFixedBytes(uint32_t h) { return 2 * Fp32Row(h); }
constexpr uint32_t LayerNormGradBetaRowBytes(uint32_t h, uint32_t type_size) {
  return (type_size < kFloatBytes ? 2 : 1) * Fp32Row(h);
}

// ---- RmsNorm ------------------------------------------------------------------------------------
// x * x (plus the fp32 copy of a 16-bit source) and the rstd block.
constexpr uint32_t RmsNormRowBytes(uint32_t h, uint32_t type_size) {
  return (type_size < kFloatBytes ? 2 : 1) * Fp32Row(h) + kBlockBytes;
}

// ---- BatchNorm ----------------------------------------------------------------------------------
// Per feature column (one of S * H) over b rows: three fp32 work values per row plus its mean and
// variance. A pass handles a whole 32-byte block of the source's columns at least.
constexpr uint32_t BatchNormColumnBytes(uint32_t b) { return (3 * b + 2) * kFloatBytes; }
constexpr uint32_t BatchNormMinColumns(uint32_t sh, uint32_t type_size) {
  return type_size == 0 ? 0 : (sh < kBlockBytes / type_size ? sh : kBlockBytes / type_size);
}

// ---- GroupNorm ----------------------------------------------------------------------------------
// Per group of d channels x hw: three fp32 work rows of the group and its mean and variance blocks.
constexpr uint32_t GroupNormGroupBytes(uint32_t d, uint32_t hw) { return 3 * Fp32Row(d * hw) + 2 * kBlockBytes; }

// ---- WelfordUpdate / WelfordFinalize ------------------------------------------------------------
// WelfordUpdate over abLength columns: x - mean and the update term (plus the fp32 copy of a half
// source). One pass always: the minimum equals the maximum.
constexpr uint32_t WelfordUpdateBytes(uint32_t ab, uint32_t type_size_t) {
  return (type_size_t < kFloatBytes ? 3 : 2) * Fp32Row(ab);
}
// WelfordFinalize over abLength partial results: the weighted means and the squared deviations, and
// one reduction block.
constexpr uint32_t WelfordFinalizeBytes(uint32_t ab) { return 2 * Fp32Row(ab) + kBlockBytes; }

// Rows that fit a work buffer of `bytes` (0 when not even one fits), at most `rows`.
constexpr uint32_t RowsPerPass(uint32_t bytes, uint32_t fixed, uint32_t row_bytes, uint32_t rows) {
  return row_bytes == 0 || bytes < fixed || (bytes - fixed) / row_bytes == 0
             ? 0
             : ((bytes - fixed) / row_bytes < rows ? (bytes - fixed) / row_bytes : rows);
}

}  // namespace npukb_lib
