// npukb_sim/kernel/vec_transpose.h -- Transpose of one 16x16 matrix of 2-byte elements
// (TransDataTo5HD is in trans_data.h). Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {

// ---- Transpose: one 16x16 matrix of 2-byte elements ---------------------------------------------
template <typename T>
inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src) { NPUKB_CALLER;
  static_assert(sim::one_of<T, half, std::int16_t, std::uint16_t>, "Transpose (16x16): supports half, int16_t, uint16_t");
  sim::check_local("Transpose", "dst", dst, 512, true, file, line);
  sim::check_local("Transpose", "src", src, 512, true, file, line);
  T tmp[256];
  for (int i = 0; i < 16; ++i) for (int j = 0; j < 16; ++j) tmp[j * 16 + i] = src.ptr()[i * 16 + j];
  std::memcpy(dst.ptr(), tmp, sizeof(tmp));
  const npukb::kern::Span sp = sim::vspan(src, 512), dp = sim::vspan(dst, 512);
  sim::vec_cost(kCostSimple, 2, &sp, 1, &dp, 1);
}

}  // namespace AscendC
