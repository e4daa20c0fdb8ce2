// matmul_tiling.h -- host-side tiling shared by the level-3 GEMM expert solutions: the output is
// cut into tiles of at most 128 x 256 (one L0C), spread round-robin over the AI cube cores.
#pragma once
#include <algorithm>
#include <cstdint>

#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

struct MatmulTiling {
  uint32_t m;
  uint32_t n;
  uint32_t k;
  uint32_t tileM;     // rows of an output tile (multiple of 16, <= 128)
  uint32_t tileN;     // columns of an output tile (multiple of 16, <= 256)
  uint32_t tilesM;
  uint32_t tilesN;
  uint32_t batch;     // independent problems of the same shape (1 when not batched)
};

inline uint32_t CeilDiv(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }
inline uint32_t Align16(uint32_t a) { return (a + 15) / 16 * 16; }

// Tiles of a (batch x) m x n output; returns the cube cores to launch.
inline uint32_t Plan(MatmulTiling& t, uint32_t batch, uint32_t m, uint32_t n, uint32_t k) {
  t.batch = batch;
  t.m = m;
  t.n = n;
  t.k = k;
  t.tileM = std::min<uint32_t>(128, Align16(m));
  t.tileN = std::min<uint32_t>(256, Align16(n));
  t.tilesM = CeilDiv(m, t.tileM);
  t.tilesN = CeilDiv(n, t.tileN);
  const uint32_t cores = platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAic();
  const uint64_t tiles = static_cast<uint64_t>(batch) * t.tilesM * t.tilesN;
  return static_cast<uint32_t>(std::max<uint64_t>(1, std::min<uint64_t>(cores, tiles)));
}

}  // namespace matmul_tiling
