// npukb_sim/kernel/broadcast.h -- BroadCast / Broadcast: numpy-style broadcast of a 1-D or 2-D tensor
// (dim 1: [1] -> [n]; dim 2, axis 0: [1, k] -> [m, k]; axis 1: [m, 1] -> [m, k]), dense row-major.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/vec_elementwise_common.h"

namespace AscendC {
namespace sim {
template <typename T, std::int32_t dim, std::int32_t axis>
inline void broadcast_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t* dstShape,
                          const std::uint32_t* srcShape, const char* file, int line) {
  static_assert(one_of<T, half, float, std::int8_t, std::uint8_t>,
                "BroadCast: unsupported data type (int8_t, uint8_t, half, float)");
  static_assert(dim == 1 || dim == 2, "BroadCast: dim must be 1 or 2");
  static_assert(axis >= 0 && axis < dim, "BroadCast: axis must be 0 (dim 1) or 0/1 (dim 2)");
  const char* api = "BroadCast";
  std::uint64_t rows = 1, cols = dstShape[dim - 1];
  if (dim == 2) rows = dstShape[0];
  const std::uint32_t want_src_rows = dim == 2 ? (axis == 0 ? 1u : dstShape[0]) : 1u;
  const std::uint32_t want_src_cols = dim == 2 ? (axis == 0 ? dstShape[1] : 1u) : 1u;
  const std::uint32_t src_rows = dim == 2 ? srcShape[0] : 1u;
  const std::uint32_t src_cols = srcShape[dim - 1];
  if (src_rows != want_src_rows || src_cols != want_src_cols) {
    npukb::violation(api, "srcShape does not broadcast to dstShape along axis " + npukb::kern::num(axis), file, line);
  }
  const std::uint64_t sn = static_cast<std::uint64_t>(src_rows) * src_cols, dn = rows * cols;
  if (dn == 0) return;
  check_local(api, "src", src, sn * sizeof(T), true, file, line);
  check_local(api, "dst", dst, dn * sizeof(T), true, file, line);
  const std::vector<T> s(src.ptr(), src.ptr() + sn);  // dst may alias src (in-place broadcast)
  T* d = dst.ptr();
  for (std::uint64_t r = 0; r < rows; ++r) {
    for (std::uint64_t c = 0; c < cols; ++c) {
      d[r * cols + c] = dim == 1 ? s[0] : (axis == 0 ? s[c] : s[r]);
    }
  }
  const npukb::kern::Span sp = vspan(src, sn * sizeof(T)), dp = vspan(dst, dn * sizeof(T));
  vec_cost(kCostSimple * 2, static_cast<std::uint32_t>((dn * sizeof(T) + 255) / 256), &sp, 1, &dp, 1);
}
}  // namespace sim

template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim], LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  (void)sharedTmpBuffer;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, file, line);
}
template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim]) { NPUKB_CALLER;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, file, line);
}
// The newer spelling of the same API.
template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim], LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  (void)sharedTmpBuffer;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, file, line);
}
template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim]) { NPUKB_CALLER;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, file, line);
}

}  // namespace AscendC
