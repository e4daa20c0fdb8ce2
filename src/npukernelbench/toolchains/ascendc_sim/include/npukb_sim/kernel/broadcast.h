// npukb_sim/kernel/broadcast.h -- BroadCast / Broadcast: numpy-style broadcast of a 1-D or 2-D tensor
// (dim 1: [1] -> [n]; dim 2, axis 0: [1, k] -> [m, k]; axis 1: [m, 1] -> [m, k]), dense row-major.
// The sharedTmpBuffer (or the UB the framework form takes) must hold the simulator's minimum, the figure
// GetBroadCastMaxMinTmpSize reports (npukb_sim/transform_tmp_sizes.h); with dim 2 and axis 0 the row
// srcShape[1] must be 32-byte aligned. dst may be src (real kernels broadcast a row in place: the result
// is the non-overlapping one). The dynamic-shape form with BroadcastTiling and GetBroadcastTilingInfo are
// documented for the Ascend 950 only: declared, they fail to compile with that explanation.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/lib_support.h"
#include "npukb_sim/lib_tmp_sizes.h"

namespace AscendC {
namespace sim {
template <typename T, std::int32_t dim, std::int32_t axis>
inline void broadcast_run(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t* dstShape,
                          const std::uint32_t* srcShape, const LocalTensor<std::uint8_t>* tmp, const char* file, int line) {
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
  if (dim == 2 && axis == 0 && src_cols * sizeof(T) % 32 != 0) {
    npukb::violation(api, "with dim 2 and axis 0, srcShape[1] (" + npukb::kern::num(src_cols) +
                     " elements) must be 32-byte aligned", file, line);
  }
  const std::uint64_t need = npukb_lib::BroadcastTmpBytes(static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(cols),
                                                          sizeof(T), dim == 2 && axis == 1, false);
  if (tmp != nullptr) {
    if (need > 0) check_tmp_buffer(api, *tmp, need, "Broadcast needs (GetBroadCastMaxMinTmpSize's minimum)", file, line);
  } else if (need > 0) {
    check_framework_tmp(api, need, "GetBroadCastMaxMinTmpSize's minimum", file, line);
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
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, &sharedTmpBuffer, file, line);
}
template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim]) { NPUKB_CALLER;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, nullptr, file, line);
}
// The newer spelling of the same API.
template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim], LocalTensor<std::uint8_t>& sharedTmpBuffer) { NPUKB_CALLER;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, &sharedTmpBuffer, file, line);
}
template <typename T, std::int32_t dim, std::int32_t axis, bool isReuseSource = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t dstShape[dim],
                      const std::uint32_t srcShape[dim]) { NPUKB_CALLER;
  sim::broadcast_run<T, dim, axis>(dst, src, dstShape, srcShape, nullptr, file, line);
}

// The dynamic-shape form (Ascend 950PR / 950DT only). BroadcastTiling's fields are not documented.
struct BroadcastTiling {
  std::uint32_t rank = 0;
};
namespace sim {
template <typename T>
constexpr bool broadcast_false = false;
}  // namespace sim
#define NPUKB_BROADCAST_950_ONLY(NAME)                                                                                \
  static_assert(sim::broadcast_false<T>, #NAME " with a BroadcastTiling is documented for the Ascend 950PR / 950DT "  \
                "only; on the Atlas A2 / A3 series use Broadcast<T, dim, axis>(dst, src, dstShape, srcShape[, tmp])")
template <class T, int constRank = -1, std::uint32_t* constDstShape = nullptr, std::uint32_t* constSrcShape = nullptr,
          bool constSrcInnerPad = false>
inline void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t* dstShape,
                      const std::uint32_t* srcShape, BroadcastTiling* tiling) { NPUKB_CALLER;
  NPUKB_BROADCAST_950_ONLY(Broadcast);
}
template <class T, int constRank = -1, std::uint32_t* constDstShape = nullptr, std::uint32_t* constSrcShape = nullptr>
inline void GetBroadcastTilingInfo(std::uint32_t rank, const std::uint32_t* dstShape, const std::uint32_t* srcShape,
                                   bool srcInnerPad, BroadcastTiling& tiling) {
  NPUKB_BROADCAST_950_ONLY(GetBroadcastTilingInfo);
}
#undef NPUKB_BROADCAST_950_ONLY

}  // namespace AscendC
