// npukb_sim/kernel/data_copy_layout.h -- the DataCopy forms between GM and UB that change the layout
// on the way: the slice copy (SliceInfo per dimension: the elements startIndex..endIndex of a dimension
// of shapeValue elements, in slices of burstLen 32-byte blocks (dimension 0) or of one index (outer
// dimensions) separated by stride elements; the k-th selected source element goes to the k-th selected
// destination element, dimension 0 fastest) and NZ -> ND on the way out of UB (Nz2NdParamsFull: element
// (row, col) of NZ matrix m lies at m * srcNdMatrixStride * 256 + (col / 16) * srcNStride * 16 + row * 16
// + col % 16 elements of src and goes to m * dstNdMatrixStride + row * dstDStride + col of dst).
// Both are software-simulated APIs on the device, costed here as their DMA bursts.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <vector>

#include "npukb_sim/kernel/cube_types.h"
#include "npukb_sim/kernel/vec_drivers.h"

namespace AscendC {

struct SliceInfo {
  SliceInfo() = default;
  SliceInfo(const std::uint16_t startIndexIn, const std::uint16_t endIndexIn, const std::uint16_t strideIn,
            const std::uint16_t burstLenIn, const std::uint16_t shapeValueIn)
      : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn), shapeValue(shapeValueIn) {}
  std::uint16_t startIndex = 0;
  std::uint16_t endIndex = 0;
  std::uint16_t stride = 0;
  std::uint16_t burstLen = 1;
  std::uint16_t shapeValue = 0;
};

namespace sim {
template <typename T>
constexpr bool slice_types = one_of<T, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, half, bfloat16_t, std::int32_t,
                                    std::uint32_t, float>;

// The selected element offsets (row-major, dimension 0 fastest) of one side of a slice copy.
template <typename T>
inline std::vector<std::uint64_t> slice_offsets(const SliceInfo* info, std::uint32_t dims, const char* what, const char* file, int line) {
  const char* api = "DataCopy";
  std::vector<std::vector<std::uint64_t>> idx(dims);
  for (std::uint32_t d = 0; d < dims; ++d) {
    const SliceInfo& s = info[d];
    const std::string dim = std::string(what) + "SliceInfo[" + npukb::kern::num(d) + "]";
    if (!(s.startIndex < s.endIndex && s.endIndex <= s.shapeValue)) {
      npukb::violation(api, dim + ": startIndex < endIndex <= shapeValue does not hold", file, line);
    }
    if (d > 0 && s.burstLen != 1) npukb::violation(api, dim + ": burstLen must be 1 beyond the first dimension", file, line);
    const std::uint64_t len = d == 0 ? static_cast<std::uint64_t>(s.burstLen) * 32 / sizeof(T) : 1;
    const std::uint64_t span = static_cast<std::uint64_t>(s.endIndex) - s.startIndex + 1;
    if (len == 0 || (span + s.stride) % (len + s.stride) != 0) {
      npukb::violation(api, dim + ": endIndex - startIndex + 1 is not (N - 1) * stride + N * burstLen * 32 / sizeof(T)", file, line);
    }
    for (std::uint64_t p = s.startIndex; p + len <= static_cast<std::uint64_t>(s.endIndex) + 1; p += len + s.stride) {
      for (std::uint64_t e = 0; e < len; ++e) idx[d].push_back(p + e);
    }
  }
  std::vector<std::uint64_t> out{0};
  std::uint64_t mult = 1;
  for (std::uint32_t d = 0; d < dims; ++d) {
    std::vector<std::uint64_t> next;
    next.reserve(out.size() * idx[d].size());
    for (std::uint64_t i : idx[d])
      for (std::uint64_t o : out) next.push_back(o + i * mult);
    out.swap(next);
    mult *= info[d].shapeValue;
  }
  return out;
}

template <typename T>
inline void check_slice(const SliceInfo* dstInfo, const SliceInfo* srcInfo, std::uint32_t dims, const char* file, int line) {
  if (dims < 1 || dims > 8) {
    npukb::violation("DataCopy", "dimValue " + npukb::kern::num(dims) + " is outside [1, 8]", file, line);
  }
  for (std::uint32_t d = 0; d < dims; ++d) {
    if (dstInfo[d].burstLen != srcInfo[d].burstLen) {
      npukb::violation("DataCopy", "srcSliceInfo[" + npukb::kern::num(d) + "].burstLen differs from dstSliceInfo's", file, line);
    }
  }
  if ((static_cast<std::uint64_t>(srcInfo[0].burstLen) * 32) % sizeof(T) != 0) {
    npukb::violation("DataCopy", "burstLen * 32 bytes is not a whole number of elements", file, line);
  }
}
inline std::uint32_t runs_of(const std::vector<std::uint64_t>& offs) {
  std::uint32_t runs = offs.empty() ? 0 : 1;
  for (std::size_t i = 1; i < offs.size(); ++i) runs += offs[i] != offs[i - 1] + 1;
  return runs;
}
}  // namespace sim

// ---- slice copy GM -> UB ----------------------------------------------------------------------------
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                     const std::uint32_t dimValue = 1) { NPUKB_CALLER;
  static_assert(sim::slice_types<T>, "DataCopy (slice): unsupported data type");
  sim::check_slice<T>(dstSliceInfo, srcSliceInfo, dimValue, file, line);
  const std::vector<std::uint64_t> so = sim::slice_offsets<T>(srcSliceInfo, dimValue, "src", file, line);
  const std::vector<std::uint64_t> dof = sim::slice_offsets<T>(dstSliceInfo, dimValue, "dst", file, line);
  if (so.size() != dof.size()) {
    npukb::violation("DataCopy", "the source slices select " + npukb::kern::num(static_cast<long long>(so.size())) +
                     " elements, the destination slices " + npukb::kern::num(static_cast<long long>(dof.size())), file, line);
  }
  std::uint64_t dmax = 0;
  for (std::uint64_t o : dof) dmax = std::max(dmax, o + 1);
  sim::check_local("DataCopy", "dst", dst, dmax * sizeof(T), true, file, line);
  const T* g = src.GetPhyAddr();
  for (std::size_t i = 0; i < so.size(); ++i) {
    src.check_access(g + so[i], sizeof(T), false, "DataCopy", file, line);
    std::memcpy(dst.ptr() + dof[i], g + so[i], sizeof(T));
  }
  sim::cost_gm_to_local(dst.loc().hw, sim::span_of(dst, 0, dmax * sizeof(T)), so.size() * sizeof(T), sim::runs_of(so), sim::gm_512(g));
}
// tensors of a TensorTrait carry no ShapeInfo, which the slice copy needs (the TensorTrait page)
template <typename T, TPosition pos, typename LayoutType>
inline void DataCopy(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
                     const GlobalTensor<TensorTrait<T, pos, LayoutType>>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const std::uint32_t dimValue = 1) {
  static_assert(sim::dependent_false<T>,
                "DataCopy with SliceInfo needs the tensors' ShapeInfo: not for tensors of a TensorTrait (TensorTrait page)");
}
// ---- slice copy UB -> GM ----------------------------------------------------------------------------
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
                     const std::uint32_t dimValue = 1) { NPUKB_CALLER;
  static_assert(sim::slice_types<T>, "DataCopy (slice): unsupported data type");
  sim::check_slice<T>(dstSliceInfo, srcSliceInfo, dimValue, file, line);
  const std::vector<std::uint64_t> so = sim::slice_offsets<T>(srcSliceInfo, dimValue, "src", file, line);
  const std::vector<std::uint64_t> dof = sim::slice_offsets<T>(dstSliceInfo, dimValue, "dst", file, line);
  if (so.size() != dof.size()) {
    npukb::violation("DataCopy", "the source slices select " + npukb::kern::num(static_cast<long long>(so.size())) +
                     " elements, the destination slices " + npukb::kern::num(static_cast<long long>(dof.size())), file, line);
  }
  std::uint64_t smax = 0;
  for (std::uint64_t o : so) smax = std::max(smax, o + 1);
  sim::check_local("DataCopy", "src", src, smax * sizeof(T), true, file, line);
  T* g = dst.GetPhyAddr();
  for (std::size_t i = 0; i < so.size(); ++i) {
    dst.check_access(g + dof[i], sizeof(T), true, "DataCopy", file, line);
    sim::gm_store(g + dof[i], src.ptr() + so[i], 1);
  }
  sim::cost_local_to_gm(sim::span_of(src, 0, smax * sizeof(T)), so.size() * sizeof(T), sim::runs_of(dof), sim::gm_512(g));
}
// tensors of a TensorTrait carry no ShapeInfo, which the slice copy needs (the TensorTrait page)
template <typename T, TPosition pos, typename LayoutType>
inline void DataCopy(const GlobalTensor<TensorTrait<T, pos, LayoutType>>& dst,
                     const LocalTensor<TensorTrait<T, pos, LayoutType>>& src, const SliceInfo dstSliceInfo[],
                     const SliceInfo srcSliceInfo[], const std::uint32_t dimValue = 1) {
  static_assert(sim::dependent_false<T>,
                "DataCopy with SliceInfo needs the tensors' ShapeInfo: not for tensors of a TensorTrait (TensorTrait page)");
}

// ---- NZ -> ND on the way out: UB (NZ) -> GM (ND) -------------------------------------------------------
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const Nz2NdParamsFull& intriParams) { NPUKB_CALLER;
  static_assert(sim::one_of<T, std::int16_t, std::uint16_t, half, bfloat16_t, std::int32_t, std::uint32_t, float>,
                "DataCopy (NZ2ND): unsupported data type (int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float)");
  const Nz2NdParamsFull& p = intriParams;
  const char* api = "DataCopy";
  auto range = [&](const char* name, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    if (v < lo || v > hi) {
      npukb::violation(api, std::string("Nz2NdParamsFull.") + name + " " + npukb::kern::num(static_cast<long long>(v)) +
                       " is outside [" + npukb::kern::num(static_cast<long long>(lo)) + ", " + npukb::kern::num(static_cast<long long>(hi)) +
                       "]", file, line);
    }
  };
  range("ndNum", p.ndNum, 0, 4095);
  if (p.ndNum == 0) return;
  range("nValue", p.nValue, 1, 8192);
  range("dValue", p.dValue, 1, 8192);
  range("srcNdMatrixStride", p.srcNdMatrixStride, 1, 512);
  range("srcNStride", p.srcNStride, 0, 4096);
  range("dstDStride", p.dstDStride, 1, 65535);
  range("dstNdMatrixStride", p.dstNdMatrixStride, 1, 65535);
  if (p.dValue % 16 != 0) npukb::violation(api, "Nz2NdParamsFull.dValue " + npukb::kern::num(p.dValue) + " is not a multiple of 16", file, line);
  std::uint64_t send = 0;
  auto soff = [&](std::uint64_t m, std::uint64_t row, std::uint64_t col) {
    return m * p.srcNdMatrixStride * 256ull + (col / 16) * p.srcNStride * 16ull + row * 16 + col % 16;
  };
  for (std::uint64_t m = 0; m < p.ndNum; ++m)
    for (std::uint64_t c0 = 0; c0 < p.dValue; c0 += 16) send = std::max<std::uint64_t>(send, soff(m, p.nValue - 1, c0 + 15) + 1);
  sim::check_local(api, "src", src, send * sizeof(T), true, file, line);
  T* g = dst.GetPhyAddr();
  for (std::uint64_t m = 0; m < p.ndNum; ++m)
    for (std::uint64_t row = 0; row < p.nValue; ++row) {
      T* out = g + m * p.dstNdMatrixStride + row * p.dstDStride;
      dst.check_access(out, static_cast<std::size_t>(p.dValue) * sizeof(T), true, api, file, line);
      for (std::uint64_t c0 = 0; c0 < p.dValue; c0 += 16) sim::gm_store(out + c0, src.ptr() + soff(m, row, c0), 16);
    }
  const std::uint64_t bytes = static_cast<std::uint64_t>(p.ndNum) * p.nValue * p.dValue * sizeof(T);
  sim::cost_local_to_gm(sim::span_of(src, 0, send * sizeof(T)), bytes,
                        static_cast<std::uint32_t>(static_cast<std::uint64_t>(p.ndNum) * p.nValue * (p.dValue / 16)), sim::gm_512(g));
}
// tensors of a TensorTrait: the LiteType form (an overload: the form above compiles as it did)
template <typename T, TPosition pos, typename LayoutType>
inline void DataCopy(const GlobalTensor<TensorTrait<T, pos, LayoutType>>& dst,
                     const LocalTensor<TensorTrait<T, pos, LayoutType>>& src, const Nz2NdParamsFull& intriParams) {
  DataCopy(sim::lite(dst), sim::lite(src), intriParams);
}

}  // namespace AscendC
