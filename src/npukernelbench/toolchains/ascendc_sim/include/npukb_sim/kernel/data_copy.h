// npukb_sim/kernel/data_copy.h -- DataCopy / DataCopyPad between GM and local buffers, SetPadValue,
// atomic modes. Units and silent behaviour follow the public API documentation:
//  * DataCopy count form copies calCount*sizeof(T) rounded DOWN to a multiple of 32 bytes.
//  * DataCopyParams: blockLen, srcStride, dstStride in 32-byte blocks (strides = gaps between blocks);
//    blockCount or blockLen 0 is a no-op.
//  * DataCopyPad: blockLen in bytes (a multiple of sizeof(T); 0, or blockCount 0, is a no-op); the
//    GM-side stride in bytes, the UB-side stride in 32-byte blocks; each block occupies a whole number of
//    32-byte blocks in UB: leftPadding elements, the data, rightPadding elements, then dummy bytes up to
//    the next 32-byte boundary. Padding takes paddingValue (isPad) or the SetPadValue register (isPad
//    false after SetPadValue); otherwise it is left as it was (the device writes unspecified values).
//    Dummy bytes take the same value when there is padding or a SetPadValue register, and the block's
//    first element when there is neither left nor right padding.
// Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <cstring>

#include "npukb_sim/kernel/atomic.h"
#include "npukb_sim/kernel/tensor.h"

namespace AscendC {
namespace sim {

inline bool gm_512(const void* p) { return (reinterpret_cast<std::uintptr_t>(p) & 511u) == 0; }

template <typename T, typename... Ts>
constexpr bool one_of_types = (std::is_same_v<T, Ts> || ...);

// Check a local operand: start 32-byte aligned (when required) and [off, off+bytes) inside the tensor.
template <typename T>
inline void check_local(const char* api, const char* what, const LocalTensor<T>& t, std::uint64_t end_bytes,
                        bool need_align, const char* file, int line) {
  const LocalLoc& l = t.loc();
  if (l.base == nullptr) npukb::violation(api, std::string(what) + " LocalTensor was never allocated (AllocTensor/Get missing)", file, line);
  if (need_align && (l.addr % 32u) != 0) {
    npukb::violation(api, std::string("unaligned UB address: ") + what + " starts at " + hw_name(l.hw) + " offset " +
                     npukb::kern::num(l.addr) + ", which is not 32-byte aligned", file, line);
  }
  const std::uint64_t tensor_bytes = static_cast<std::uint64_t>(t.GetSize()) * sizeof(T);
  const std::string access = std::string(what) + " access of " + npukb::kern::num(static_cast<long long>(end_bytes)) +
                             " bytes from offset " + npukb::kern::num(l.addr);
  const std::string tensor = "the LocalTensor (" + npukb::kern::num(static_cast<long long>(tensor_bytes)) + " bytes)";
  if (l.addr + end_bytes > l.region_bytes || (end_bytes > tensor_bytes && l.hw != Hardware::UB)) {
    npukb::violation(api, std::string(hw_name(l.hw)) + " overflow: " + access + " exceeds " + tensor +
                     (l.addr + end_bytes > l.region_bytes ? " and the " + npukb::kern::num(l.region_bytes) + "-byte " +
                      hw_name(l.hw) : ""), file, line);
  }
  if (end_bytes > tensor_bytes) {
    // The unified buffer is one memory and the hardware checks no tensor bounds: the access touches
    // whatever lies beyond (other buffers, or bytes no buffer owns), as it would on the device.
    npukb::warning(api, "UB overflow: " + access + " runs past " + tensor + " into other UB bytes (the device allows it; whatever "
                   "lies there is read or overwritten)", file, line);
  }
}

template <typename T>
inline npukb::kern::Span span_of(const LocalTensor<T>& t, std::uint64_t begin, std::uint64_t end) {
  if (t.loc().hw != Hardware::UB) return {0, 0};
  return {static_cast<std::uint32_t>(t.loc().addr + begin), static_cast<std::uint32_t>(t.loc().addr + end)};
}

inline void check_block_count(const char* api, std::uint32_t count, const char* file, int line) {
  if (count > 4095) {
    npukb::violation(api, "blockCount " + npukb::kern::num(count) + " exceeds the hardware limit of 4095", file, line);
  }
}

inline void cost_gm_to_local(Hardware hw, npukb::kern::Span dst, std::uint64_t bytes, std::uint32_t blocks, bool a512) {
  npukb::kern::KState& s = npukb::kern::state();
  s.blk->gm_read_bytes += bytes;
  const double c = npukb::kern::dma_cycles(bytes, blocks, false, a512);
  if (hw == Hardware::UB) npukb::kern::schedule(npukb::PIPE_ID_MTE2, c, nullptr, 0, &dst, 1);
  else npukb::kern::schedule(npukb::PIPE_ID_MTE2, c, nullptr, 0, nullptr, 0);
}
inline void cost_local_to_gm(npukb::kern::Span src, std::uint64_t bytes, std::uint32_t blocks, bool a512) {
  npukb::kern::KState& s = npukb::kern::state();
  s.blk->gm_write_bytes += bytes;
  const double c = npukb::kern::dma_cycles(bytes, blocks, true, a512);
  npukb::kern::schedule(npukb::PIPE_ID_MTE3, c, &src, 1, nullptr, 0);
}
inline void cost_local_to_local(npukb::kern::Span src, npukb::kern::Span dst, std::uint64_t bytes) {
  const double c = npukb::kern::kVecStartCycles + static_cast<double>((bytes + 255) / 256) * 2.0;
  npukb::kern::schedule(npukb::PIPE_ID_V, c, &src, 1, &dst, 1);
}

}  // namespace sim

// ---- DataCopy: count form ----------------------------------------------------------------------
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const std::uint32_t calCount) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), calCount);
  } else {
    const std::uint64_t bytes = static_cast<std::uint64_t>(calCount) * sizeof(T) / 32u * 32u;
    if (bytes == 0) return;
    sim::check_local("DataCopy", "dst", dst, bytes, true, file, line);
    src.check_access(src.GetPhyAddr(), bytes, false, "DataCopy", file, line);
    std::memcpy(dst.ptr(), src.GetPhyAddr(), bytes);
    sim::cost_gm_to_local(dst.loc().hw, sim::span_of(dst, 0, bytes), bytes, 1, sim::gm_512(src.GetPhyAddr()));
  }
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t calCount) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), calCount);
  } else {
    const std::uint64_t bytes = static_cast<std::uint64_t>(calCount) * sizeof(T) / 32u * 32u;
    if (bytes == 0) return;
    sim::check_local("DataCopy", "src", src, bytes, true, file, line);
    dst.check_access(dst.GetPhyAddr(), bytes, true, "DataCopy", file, line);
    sim::gm_store(dst.GetPhyAddr(), src.ptr(), bytes / sizeof(T));
    sim::cost_local_to_gm(sim::span_of(src, 0, bytes), bytes, 1, sim::gm_512(dst.GetPhyAddr()));
  }
}

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::uint32_t calCount) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), calCount);
  } else {
    const std::uint64_t bytes = static_cast<std::uint64_t>(calCount) * sizeof(T) / 32u * 32u;
    if (bytes == 0) return;
    sim::check_local("DataCopy", "dst", dst, bytes, true, file, line);
    sim::check_local("DataCopy", "src", src, bytes, true, file, line);
    std::memmove(dst.ptr(), src.ptr(), bytes);
    sim::cost_local_to_local(sim::span_of(src, 0, bytes), sim::span_of(dst, 0, bytes), bytes);
  }
}

// ---- DataCopy: DataCopyParams form (all units 32 bytes) ------------------------------------------
namespace sim {
// Returns false for a no-op (blockCount or blockLen 0, documented).
inline bool check_copy_params(const char* api, const DataCopyParams& p, const char* file, int line) {
  check_block_count(api, p.blockCount, file, line);
  return p.blockCount != 0 && p.blockLen != 0;
}
}  // namespace sim

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), p);
  } else {
    if (!sim::check_copy_params("DataCopy", p, file, line)) return;
    const std::uint64_t blk = static_cast<std::uint64_t>(p.blockLen) * 32u;
    const std::uint64_t sstep = blk + static_cast<std::uint64_t>(p.srcStride) * 32u;
    const std::uint64_t dstep = blk + static_cast<std::uint64_t>(p.dstStride) * 32u;
    const std::uint64_t dend = dstep * (p.blockCount - 1) + blk;
    sim::check_local("DataCopy", "dst", dst, dend, true, file, line);
    const std::uint8_t* g = reinterpret_cast<const std::uint8_t*>(src.GetPhyAddr());
    std::uint8_t* u = reinterpret_cast<std::uint8_t*>(dst.ptr());
    for (std::uint32_t i = 0; i < p.blockCount; ++i) {
      src.check_access(g + i * sstep, blk, false, "DataCopy", file, line);
      std::memcpy(u + i * dstep, g + i * sstep, blk);
    }
    sim::cost_gm_to_local(dst.loc().hw, sim::span_of(dst, 0, dend), blk * p.blockCount, p.blockCount, sim::gm_512(g));
  }
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), p);
  } else {
    if (!sim::check_copy_params("DataCopy", p, file, line)) return;
    const std::uint64_t blk = static_cast<std::uint64_t>(p.blockLen) * 32u;
    const std::uint64_t sstep = blk + static_cast<std::uint64_t>(p.srcStride) * 32u;
    const std::uint64_t dstep = blk + static_cast<std::uint64_t>(p.dstStride) * 32u;
    const std::uint64_t send = sstep * (p.blockCount - 1) + blk;
    sim::check_local("DataCopy", "src", src, send, true, file, line);
    std::uint8_t* g = reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr());
    const std::uint8_t* u = reinterpret_cast<const std::uint8_t*>(src.ptr());
    for (std::uint32_t i = 0; i < p.blockCount; ++i) {
      dst.check_access(g + i * dstep, blk, true, "DataCopy", file, line);
      sim::gm_store(reinterpret_cast<T*>(g + i * dstep), reinterpret_cast<const T*>(u + i * sstep), blk / sizeof(T));
    }
    sim::cost_local_to_gm(sim::span_of(src, 0, send), blk * p.blockCount, p.blockCount, sim::gm_512(g));
  }
}

namespace sim {
// L1 -> bias table (C2) copies have their own units and conversions (cube_copy.h).
template <typename T, typename U>
void copy_l1_to_bt(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p, const char* file,
                   int line);
// Element types a same-type copy into the bias table accepts; any other type still compiles for the
// UB/L1 copies this overload serves, and is rejected at run time if its destination is the bias table.
template <typename T>
constexpr bool bias_table_type = std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>;
// L1 -> fixpipe buffer (C2PIPE2GM) copies count 128-byte units, head to head (cube_copy.h).
template <typename T>
void copy_l1_to_fb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, const char* file,
                   int line);
}  // namespace sim

template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopy(sim::lite(dst), sim::lite(src), p);
  } else {
    if (dst.loc().hw == Hardware::BIAS) {
      if constexpr (sim::bias_table_type<T>) {
        return sim::copy_l1_to_bt(dst, src, p, file, line);
      } else {
        npukb::violation("DataCopy", "L1 -> C2 (bias table) supports float and int32_t elements", file, line);
      }
    }
    if (dst.loc().hw == Hardware::FIXBUF) {
      if constexpr (std::is_same_v<T, std::uint64_t>) {
        return sim::copy_l1_to_fb(dst, src, p, file, line);
      } else {
        npukb::violation("DataCopy", "L1 -> fixpipe buffer (C2PIPE2GM) takes uint64_t quant parameters", file, line);
      }
    }
    if (!sim::check_copy_params("DataCopy", p, file, line)) return;
    const std::uint64_t blk = static_cast<std::uint64_t>(p.blockLen) * 32u;
    const std::uint64_t sstep = blk + static_cast<std::uint64_t>(p.srcStride) * 32u;
    const std::uint64_t dstep = blk + static_cast<std::uint64_t>(p.dstStride) * 32u;
    const std::uint64_t send = sstep * (p.blockCount - 1) + blk, dend = dstep * (p.blockCount - 1) + blk;
    sim::check_local("DataCopy", "src", src, send, true, file, line);
    sim::check_local("DataCopy", "dst", dst, dend, true, file, line);
    const std::uint8_t* s = reinterpret_cast<const std::uint8_t*>(src.ptr());
    std::uint8_t* d = reinterpret_cast<std::uint8_t*>(dst.ptr());
    for (std::uint32_t i = 0; i < p.blockCount; ++i) std::memmove(d + i * dstep, s + i * sstep, blk);
    sim::cost_local_to_local(sim::span_of(src, 0, send), sim::span_of(dst, 0, dend), blk * p.blockCount);
  }
}

// ---- DataCopyPad -------------------------------------------------------------------------------
namespace sim {
template <typename T>
inline void check_pad_block_len(const char* api, std::uint32_t blockLen, const char* file, int line) {
  if (blockLen % sizeof(T) != 0) {
    npukb::violation(api, "blockLen " + npukb::kern::num(blockLen) + " bytes is not a multiple of sizeof(T) = " +
                     npukb::kern::num(static_cast<std::uint32_t>(sizeof(T))), file, line);
  }
  if (blockLen > 2097151u) {
    npukb::violation(api, "blockLen " + npukb::kern::num(blockLen) + " exceeds 2097151 bytes", file, line);
  }
}

template <typename T>
inline void pad_gm_to_local(const char* api, const LocalTensor<T>& dst, const GlobalTensor<T>& src, std::uint32_t count,
                            std::uint32_t blockLen, std::uint64_t srcStrideBytes, std::uint64_t dstStrideBlocks, bool isPad,
                            std::uint32_t left, std::uint32_t right, T padValue, const char* file, int line) {
  check_block_count(api, count, file, line);
  if (count == 0 || blockLen == 0) return;
  check_pad_block_len<T>(api, blockLen, file, line);
  if (left * sizeof(T) > 32 || right * sizeof(T) > 32) {
    npukb::violation(api, "leftPadding/rightPadding may not exceed 32 bytes each", file, line);
  }
  if constexpr (sizeof(T) == 8) {
    std::uint64_t pv;
    std::memcpy(&pv, &padValue, 8);
    if (isPad && pv != 0) npukb::violation(api, "paddingValue must be 0 for 64-bit data types", file, line);
  }
  // the padding value: paddingValue (isPad), else the SetPadValue register, else none (left as it was)
  const npukb::kern::KState& ks = npukb::kern::state();
  const bool reg = !isPad && ks.pad_value_set;
  bool have_pad = isPad || reg;
  T pv = padValue;
  if (reg) std::memcpy(&pv, &ks.pad_value, sizeof(T));
  const std::uint64_t used = left * sizeof(T) + blockLen + right * sizeof(T);
  const std::uint64_t ublk = (used + 31u) / 32u * 32u;
  const std::uint64_t dstep = ublk + dstStrideBlocks * 32u;
  const std::uint64_t sstep = blockLen + srcStrideBytes;
  const std::uint64_t dend = dstep * (count - 1) + ublk;
  check_local(api, "dst", dst, dend, true, file, line);
  const std::uint8_t* g = reinterpret_cast<const std::uint8_t*>(src.GetPhyAddr());
  std::uint8_t* u = reinterpret_cast<std::uint8_t*>(dst.ptr());
  for (std::uint32_t i = 0; i < count; ++i) {
    src.check_access(g + i * sstep, blockLen, false, api, file, line);
    std::uint8_t* row = u + i * dstep;
    if (have_pad) {
      for (std::uint32_t k = 0; k < left; ++k) std::memcpy(row + k * sizeof(T), &pv, sizeof(T));
      for (std::uint32_t k = 0; k < right; ++k) std::memcpy(row + left * sizeof(T) + blockLen + k * sizeof(T), &pv, sizeof(T));
    }
    std::memcpy(row + left * sizeof(T), g + i * sstep, blockLen);
    // dummy elements up to the 32-byte boundary
    T dummy;
    bool have_dummy = have_pad;
    if (reg || (have_pad && (left != 0 || right != 0))) dummy = pv;
    else if (left == 0 && right == 0) { std::memcpy(&dummy, g + i * sstep, sizeof(T)); have_dummy = true; }
    else have_dummy = false;
    if (have_dummy) {
      for (std::uint64_t b = used; b + sizeof(T) <= ublk; b += sizeof(T)) std::memcpy(row + b, &dummy, sizeof(T));
    }
  }
  cost_gm_to_local(dst.loc().hw, span_of(dst, 0, dend), static_cast<std::uint64_t>(blockLen) * count, count, gm_512(g));
}

template <typename T>
inline void pad_local_to_gm(const char* api, const GlobalTensor<T>& dst, const LocalTensor<T>& src, std::uint32_t count,
                            std::uint32_t blockLen, std::uint64_t srcStrideBlocks, std::uint64_t dstStrideBytes,
                            const char* file, int line) {
  check_block_count(api, count, file, line);
  if (count == 0 || blockLen == 0) return;
  check_pad_block_len<T>(api, blockLen, file, line);
  const std::uint64_t ublk = (blockLen + 31u) / 32u * 32u;
  const std::uint64_t sstep = ublk + srcStrideBlocks * 32u;
  const std::uint64_t dstep = blockLen + dstStrideBytes;
  const std::uint64_t send = sstep * (count - 1) + blockLen;
  check_local(api, "src", src, send, true, file, line);
  std::uint8_t* g = reinterpret_cast<std::uint8_t*>(dst.GetPhyAddr());
  const std::uint8_t* u = reinterpret_cast<const std::uint8_t*>(src.ptr());
  for (std::uint32_t i = 0; i < count; ++i) {
    dst.check_access(g + i * dstep, blockLen, true, api, file, line);
    if (npukb::kern::state().atomic_op != 0 && blockLen % sizeof(T) == 0) {
      gm_store(reinterpret_cast<T*>(g + i * dstep), reinterpret_cast<const T*>(u + i * sstep), blockLen / sizeof(T));
    } else {
      std::memcpy(g + i * dstep, u + i * sstep, blockLen);
    }
  }
  cost_local_to_gm(span_of(src, 0, send), static_cast<std::uint64_t>(blockLen) * count, count, gm_512(g));
}
}  // namespace sim

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopyPad<PrimT<T>>(sim::lite(dst), sim::lite(src), p, pad);
  } else {
    sim::pad_gm_to_local("DataCopyPad", dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad,
                         pad.leftPadding, pad.rightPadding, pad.paddingValue, file, line);
  }
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                        const DataCopyPadParams& pad) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopyPad<PrimT<T>>(sim::lite(dst), sim::lite(src), p, pad);
  } else {
    T v;
    std::memset(&v, 0, sizeof(T));
    std::memcpy(&v, &pad.paddingValue, sizeof(T) < 8 ? sizeof(T) : 8);
    sim::pad_gm_to_local("DataCopyPad", dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, pad.isPad,
                         pad.leftPadding, pad.rightPadding, v, file, line);
  }
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopyPad<PrimT<T>>(sim::lite(dst), sim::lite(src), p);
  } else {
    sim::pad_local_to_gm("DataCopyPad", dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, file, line);
  }
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) { NPUKB_CALLER;
  if constexpr (sim::has_trait<T>) {  // tensors of a TensorTrait: the LiteType form
    DataCopyPad<PrimT<T>>(sim::lite(dst), sim::lite(src), p);
  } else {
    sim::pad_local_to_gm("DataCopyPad", dst, src, p.blockCount, p.blockLen, p.srcStride, p.dstStride, file, line);
  }
}

// ---- SetPadValue: the padding value of DataCopyPad GM -> UB with isPad = false -------------------
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
  static_assert(sim::one_of_types<T, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, half, bfloat16_t, std::int32_t,
                                  std::uint32_t, float, std::int64_t, std::uint64_t, double>,
                "SetPadValue: unsupported data type");
  static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                "SetPadValue: pos must be TPosition::VECIN, TPosition::VECOUT or TPosition::MAX");
  npukb::kern::KState& s = npukb::kern::state();
  s.pad_value = 0;
  std::memcpy(&s.pad_value, &paddingValue, sizeof(T));
  s.pad_value_set = true;
}

// ---- InitGlobalMemory / InitOutput: fill `size` elements of GM with `value` -----------------------
namespace sim {
template <typename T>
inline void fill_gm(const char* api, const GlobalTensor<T>& gm, std::uint64_t size, T value, const char* file, int line) {
  static_assert(one_of_types<T, std::uint16_t, std::int16_t, half, bfloat16_t, std::uint32_t, std::int32_t, float>,
                "InitGlobalMemory: unsupported data type");
  if (size == 0) return;
  const std::uint64_t bytes = size * sizeof(T);
  gm.check_access(gm.GetPhyAddr(), bytes, true, api, file, line);
  T* p = gm.GetPhyAddr();
  for (std::uint64_t i = 0; i < size; ++i) std::memcpy(p + i, &value, sizeof(T));
  cost_local_to_gm({0, 0}, bytes, 1, gm_512(p));
}
}  // namespace sim
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const std::uint64_t size, const T value) { NPUKB_CALLER;
  sim::fill_gm("InitGlobalMemory", gmWorkspaceAddr, size, value, file, line);
}
// The older name of InitGlobalMemory.
template <typename T>
inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, std::uint32_t size, T value = 0) { NPUKB_CALLER;
  sim::fill_gm("InitOutput", gmWorkspaceAddr, size, value, file, line);
}

// The atomic modes of moves into GM (SetAtomicAdd, ...) live in atomic.h (sim::gm_store).

}  // namespace AscendC
