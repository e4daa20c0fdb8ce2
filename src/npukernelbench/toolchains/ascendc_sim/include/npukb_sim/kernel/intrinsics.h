// npukb_sim/kernel/intrinsics.h -- the device compiler's built-ins that real kernels call directly on
// raw `__ubuf__` pointers (set_flag/wait_flag with pipe pairs, get_block_idx, set_vector_mask,
// set_mask_norm/count, vcadd with the accumulate register, vector_dup, vor, vtranspose,
// copy_ubuf_to_ubuf, the VA address registers with scatter_vnchwconv_b16, get_max_min_cnt) and the AscendC
// helpers built on them (AscendCUtils::SetMask, GetAccVal, GetReduceMaxMinCount, GetScalarBitcodeValue,
// DuplicateImpl, DataCopyGM2UBImpl / DataCopyUB2GMImpl / DataCopyUB2UBImpl). Clean-room part of ascendc-sim.
//
// A raw pointer must point into this block's unified buffer (it comes from LocalTensor::GetPhyAddr());
// the simulator maps it back to a UB offset, checks that the whole access stays inside UB and then runs
// the same execution model as the LocalTensor APIs (mask register, counter mode, strides, cost).
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/cube_cores.h"  // set_mask_norm / set_mask_count
#include "npukb_sim/kernel/reduce.h"
#include "npukb_sim/kernel/sync.h"
#include "npukb_sim/kernel/trans_data.h"
#include "npukb_sim/kernel/vec_elementwise_common.h"
#include "npukb_sim/kernel/vec_mask.h"
#include "npukb_sim/kernel/vec_transpose.h"

// Address registers of the vector unit (set_va_reg_sb / scatter_vnchwconv_*).
enum ub_addr8_t : std::uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

namespace AscendC {
namespace sim {

// Byte offset of raw pointer `p` in this block's UB; the access [p, p + bytes) must stay inside UB.
inline std::uint32_t ub_offset(const void* p, std::uint64_t bytes, const char* api, const char* what, const char* file,
                               int line) {
  const std::uint8_t* ub = npukb::block().ub;
  const auto* q = static_cast<const std::uint8_t*>(p);
  if (ub == nullptr || q < ub || q >= ub + npukb::kUbBytes) {
    npukb::violation(api, std::string(what) + " is not an address in the unified buffer (use LocalTensor::GetPhyAddr())",
                     file, line);
  }
  const std::uint64_t off = static_cast<std::uint64_t>(q - ub);
  if (off + bytes > npukb::kUbBytes) {
    npukb::violation(api, std::string("UB overflow: ") + what + " access of " + npukb::kern::num(static_cast<long long>(bytes)) +
                     " bytes from UB offset " + npukb::kern::num(static_cast<long long>(off)) + " runs past the " +
                     npukb::kern::num(static_cast<long long>(npukb::kUbBytes)) + "-byte UB", file, line);
  }
  return static_cast<std::uint32_t>(off);
}

// A LocalTensor view of the UB from raw pointer `p` to the end of UB (the API checks its own extent).
template <typename T>
inline LocalTensor<T> ub_view(const T* p, const char* api, const char* what, const char* file, int line) {
  LocalLoc l;
  l.base = npukb::block().ub;
  l.region_bytes = static_cast<std::uint32_t>(npukb::kUbBytes);
  l.addr = ub_offset(p, 0, api, what, file, line);
  l.hw = Hardware::UB;
  l.pos = TPosition::VECCALC;
  return LocalTensor<T>::make(l, (static_cast<std::uint32_t>(npukb::kUbBytes) - l.addr) / static_cast<std::uint32_t>(sizeof(T)));
}

// HardEvent of a (source pipe, destination pipe) pair; false when the hardware has no such flag.
inline bool hard_event_of(pipe_t src, pipe_t dst, HardEvent& e) {
  struct Pair { pipe_t s, d; HardEvent e; };
  static constexpr Pair kPairs[] = {
      {PIPE_MTE2, PIPE_MTE1, HardEvent::MTE2_MTE1}, {PIPE_MTE1, PIPE_MTE2, HardEvent::MTE1_MTE2},
      {PIPE_MTE1, PIPE_M, HardEvent::MTE1_M},       {PIPE_M, PIPE_MTE1, HardEvent::M_MTE1},
      {PIPE_MTE2, PIPE_V, HardEvent::MTE2_V},       {PIPE_V, PIPE_MTE2, HardEvent::V_MTE2},
      {PIPE_MTE3, PIPE_V, HardEvent::MTE3_V},       {PIPE_V, PIPE_MTE3, HardEvent::V_MTE3},
      {PIPE_M, PIPE_V, HardEvent::M_V},             {PIPE_V, PIPE_M, HardEvent::V_M},
      {PIPE_V, PIPE_V, HardEvent::V_V},             {PIPE_MTE3, PIPE_MTE1, HardEvent::MTE3_MTE1},
      {PIPE_MTE1, PIPE_MTE3, HardEvent::MTE1_MTE3}, {PIPE_MTE1, PIPE_V, HardEvent::MTE1_V},
      {PIPE_MTE2, PIPE_M, HardEvent::MTE2_M},       {PIPE_M, PIPE_MTE2, HardEvent::M_MTE2},
      {PIPE_V, PIPE_MTE1, HardEvent::V_MTE1},       {PIPE_M, PIPE_FIX, HardEvent::M_FIX},
      {PIPE_FIX, PIPE_M, HardEvent::FIX_M},         {PIPE_MTE3, PIPE_MTE2, HardEvent::MTE3_MTE2},
      {PIPE_MTE2, PIPE_MTE3, HardEvent::MTE2_MTE3}, {PIPE_S, PIPE_V, HardEvent::S_V},
      {PIPE_V, PIPE_S, HardEvent::V_S},             {PIPE_S, PIPE_MTE2, HardEvent::S_MTE2},
      {PIPE_MTE2, PIPE_S, HardEvent::MTE2_S},       {PIPE_S, PIPE_MTE3, HardEvent::S_MTE3},
      {PIPE_MTE3, PIPE_S, HardEvent::MTE3_S},       {PIPE_MTE2, PIPE_FIX, HardEvent::MTE2_FIX},
      {PIPE_FIX, PIPE_MTE2, HardEvent::FIX_MTE2},   {PIPE_FIX, PIPE_S, HardEvent::FIX_S},
      {PIPE_M, PIPE_S, HardEvent::M_S},             {PIPE_FIX, PIPE_MTE3, HardEvent::FIX_MTE3},
      {PIPE_MTE1, PIPE_FIX, HardEvent::MTE1_FIX},   {PIPE_FIX, PIPE_MTE1, HardEvent::FIX_MTE1},
      {PIPE_FIX, PIPE_FIX, HardEvent::FIX_FIX},
  };
  for (const Pair& p : kPairs) {
    if (p.s == src && p.d == dst) {
      e = p.e;
      return true;
    }
  }
  return false;
}

inline const char* pipe_name(pipe_t p) {
  static const char* const kNames[] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                                       "PIPE_ALL", "PIPE_MTE4", "PIPE_MTE5", "PIPE_V2", "PIPE_FIX"};
  return static_cast<unsigned>(p) < sizeof(kNames) / sizeof(kNames[0]) ? kNames[p] : "PIPE_?";
}

inline HardEvent flag_event(const char* api, pipe_t src, pipe_t dst, const char* file, int line) {
  HardEvent e;
  if (!hard_event_of(src, dst, e)) {
    npukb::violation(api, std::string("no hardware flag runs from ") + pipe_name(src) + " to " + pipe_name(dst), file, line);
  }
  return e;
}

}  // namespace sim

// TQueSync<src, dst>: SetFlag / WaitFlag of the hardware flag between two pipes (the HardEvent of the pair).
template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  void SetFlag(TEventID id) { NPUKB_CALLER; sim::set_flag(sim::flag_event("TQueSync::SetFlag", src, dst, file, line), id, file, line); }
  void WaitFlag(TEventID id) { NPUKB_CALLER; sim::wait_flag(sim::flag_event("TQueSync::WaitFlag", src, dst, file, line), id, file, line); }
};

namespace sim {
template <typename T>
inline std::uint64_t raw_bits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
inline T from_bits(std::uint64_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));
  return v;
}

// vcadd: per-repeat sums (mode false) or the sum of every repeat into the accumulate register (mode true).
template <typename T>
inline void vcadd_run(T* dst, T* src, std::int64_t repeat, std::int32_t dstRepStride, std::int32_t srcBlkStride,
                      std::int32_t srcRepStride, bool accumulate, const char* file, int line) {
  static_assert(one_of<T, half, float>, "vcadd: supports half and float");
  const LocalTensor<T> s = ub_view(src, "vcadd", "src", file, line);
  if (!accumulate) {
    const LocalTensor<T> d = ub_view(dst, "vcadd", "dst", file, line);
    whole_reduce("vcadd", d, s, false, nullptr, 0, static_cast<std::int32_t>(repeat), dstRepStride, srcBlkStride,
                 srcRepStride, Red::Sum, ReduceOrder::ORDER_ONLY_VALUE, file, line);
    return;
  }
  check_repeat("vcadd", repeat, file, line);
  const Plan pl = make_plan("vcadd", false, nullptr, 0, repeat, 256 / sizeof(T), file, line);
  npukb::kern::KState& st = npukb::kern::state();
  if (pl.empty()) return;
  const Opnd os = opnd(s, static_cast<std::uint32_t>(srcBlkStride), static_cast<std::uint32_t>(srcRepStride));
  const std::uint64_t es = os.extent(pl);
  check_local("vcadd", "src", s, es, true, file, line);
  float acc;
  std::uint32_t idx;
  reduce_plan<T>(os, pl, Red::Sum, acc, idx);
  st.acc_val = raw_bits<T>(static_cast<T>(acc));
  const npukb::kern::Span sp = vspan(s, es);
  vec_cost(static_cast<double>(npukb::kern::VecCost::Reduce), pl.repeats, &sp, 1, nullptr, 0);
}

}  // namespace sim

// ---- AscendCUtils --------------------------------------------------------------------------------
class AscendCUtils {
 public:
  // Mask of the next vector instruction: the first `len` elements (normal mode) or the count (counter mode
  // reads the low word as the element count).
  template <typename T, bool isSetMask = true>
  static void SetMask(const std::int32_t len) {
    if (!isSetMask) return;
    npukb::kern::KState& s = npukb::kern::state();
    const std::uint64_t n = static_cast<std::uint64_t>(len < 0 ? 0 : len);
    const std::uint32_t per_rep = 256u / sizeof(T);
    if (n >= per_rep) {
      s.mask[0] = ~0ull;
      s.mask[1] = per_rep > 64 ? ~0ull : 0;
      return;
    }
    s.mask[0] = sim::mask_low_bits(n);
    s.mask[1] = n > 64 ? sim::mask_low_bits(n - 64) : 0;
  }
  template <typename T, bool isSetMask = true>
  static void SetMask(const std::uint64_t& maskHigh, const std::uint64_t& maskLow) {
    if (!isSetMask) return;
    npukb::kern::KState& s = npukb::kern::state();
    s.mask[0] = maskLow;
    s.mask[1] = maskHigh;
  }
  static std::int32_t GetC0Count(const std::int32_t dtypeSize) { return ONE_BLK_SIZE / dtypeSize; }
  static constexpr std::int32_t GetC0Size() { return ONE_BLK_SIZE; }
  template <typename T>
  static std::int32_t GetBitSize(std::int32_t byteSize) { return byteSize * 8; }
  static void ResetMask() { AscendC::ResetMask(); }
  // The mask mode of the next vector instructions (SetMaskCount / SetMaskNorm), per element type.
  template <typename T>
  static void SetMaskCount() { AscendC::SetMaskCount(); }
  template <typename T>
  static void SetMaskNorm() { AscendC::SetMaskNorm(); }
};

// Sum left in the accumulate register by vcadd(..., true) (raw bits of the element type in the low bytes).
inline std::int64_t GetAccVal() { return static_cast<std::int64_t>(npukb::kern::state().acc_val); }

// Extreme and index of the last WholeReduceMax/WholeReduceMin (index bits stored in the element type).
template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
  static_assert(sim::one_of<T, half, float>, "GetReduceMaxMinCount: supports half and float");
  const npukb::kern::KState& s = npukb::kern::state();
  maxMinValue = sim::from_bits<T>(s.max_min_value);
  maxMinIndex = sim::from_bits<T>(s.max_min_index);
}
template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue) {
  static_assert(sim::one_of<T, half, float>, "GetReduceMaxMinCount: supports half and float");
  maxMinValue = sim::from_bits<T>(npukb::kern::state().max_min_value);
}

// A scalar's bit pattern: zero-extended into 64 bits, or reinterpreted as another type of the same size
// (GetScalarBitcodeValue<uint32_t, float>(0x7f800000) is +inf).
template <typename T>
constexpr inline std::uint64_t GetScalarBitcodeValue(T scalarValue) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "GetScalarBitcodeValue: a 1-, 2-, 4- or 8-byte scalar");
  if constexpr (sizeof(T) == 1) return __builtin_bit_cast(std::uint8_t, scalarValue);
  else if constexpr (sizeof(T) == 2) return __builtin_bit_cast(std::uint16_t, scalarValue);
  else if constexpr (sizeof(T) == 4) return __builtin_bit_cast(std::uint32_t, scalarValue);
  else return __builtin_bit_cast(std::uint64_t, scalarValue);
}
template <typename T, typename U>
constexpr inline U GetScalarBitcodeValue(T scalarValue) {
  static_assert(sizeof(T) == sizeof(U), "GetScalarBitcodeValue: the two types differ in size");
  return __builtin_bit_cast(U, scalarValue);
}

// The library layer under Duplicate, on a raw unified-buffer address (LocalTensor::GetPhyAddr()): the
// counter form and the two mask forms, with Duplicate's types, checks and cost.
template <typename T>
inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, const std::int32_t& calCount) { NPUKB_CALLER;
  Duplicate(sim::ub_view(dstLocal, "DuplicateImpl", "dst", file, line), scalarValue, calCount);
}
template <typename T, bool isSetMask = true>
inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, std::uint64_t mask, const std::uint8_t repeatTimes,
                          const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride) { NPUKB_CALLER;
  Duplicate<T, isSetMask>(sim::ub_view(dstLocal, "DuplicateImpl", "dst", file, line), scalarValue, mask, repeatTimes,
                      dstBlockStride, dstRepeatStride);
}
template <typename T, bool isSetMask = true>
inline void DuplicateImpl(__ubuf__ T* dstLocal, const T& scalarValue, std::uint64_t mask[], const std::uint8_t repeatTimes,
                          const std::uint16_t dstBlockStride, const std::uint8_t dstRepeatStride) { NPUKB_CALLER;
  Duplicate<T, isSetMask>(sim::ub_view(dstLocal, "DuplicateImpl", "dst", file, line), scalarValue, mask, repeatTimes,
                      dstBlockStride, dstRepeatStride);
}

// The library layer under DataCopy's DataCopyParams forms, on raw addresses: GM -> UB, UB -> GM and
// UB -> UB bursts, with DataCopy's checks (GM bounds, UB extent, 32-byte blocks) and cost.
template <typename T>
inline void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& intriParams) { NPUKB_CALLER;
  GlobalTensor<T> g;
  g.SetGlobalBuffer(src);
  DataCopy(sim::ub_view(dst, "DataCopyGM2UBImpl", "dst", file, line), g, intriParams);
}
template <typename T>
inline void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams) { NPUKB_CALLER;
  GlobalTensor<T> g;
  g.SetGlobalBuffer(dst);
  DataCopy(g, sim::ub_view(src, "DataCopyUB2GMImpl", "src", file, line), intriParams);
}
template <typename T>
inline void DataCopyUB2UBImpl(__ubuf__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams) { NPUKB_CALLER;
  DataCopy(sim::ub_view(dst, "DataCopyUB2UBImpl", "dst", file, line),
           sim::ub_view(src, "DataCopyUB2UBImpl", "src", file, line), intriParams);
}

}  // namespace AscendC

// ---- global built-ins ----------------------------------------------------------------------------
namespace npukb {
namespace kern {
// The device compiler's built-in variables block_idx / block_num: read-only, the running block's values.
// Objects rather than macros, so that a kernel may still declare its own variable of the same name.
struct BlockIdxVar {
  operator std::int64_t() const { return block().block_idx; }  // NOLINT: behaves like the built-in variable
};
struct BlockNumVar {
  operator std::int64_t() const { return block().block_num; }  // NOLINT: behaves like the built-in variable
};
}  // namespace kern
}  // namespace npukb
inline constexpr npukb::kern::BlockIdxVar block_idx{};
inline constexpr npukb::kern::BlockNumVar block_num{};

inline std::int64_t get_block_idx() { return npukb::block().block_idx; }
inline std::int64_t get_block_num() { return npukb::block().block_num; }
inline std::int64_t get_subblockid() { return npukb::block().sub_block_idx; }
inline std::int64_t get_subblockdim() { return npukb::block().sub_block_num; }

inline void set_flag(pipe_t src, pipe_t dst, std::int64_t eventId) { NPUKB_CALLER;
  AscendC::sim::set_flag(AscendC::sim::flag_event("set_flag", src, dst, file, line), static_cast<int>(eventId), file, line);
}
inline void wait_flag(pipe_t src, pipe_t dst, std::int64_t eventId) { NPUKB_CALLER;
  AscendC::sim::wait_flag(AscendC::sim::flag_event("wait_flag", src, dst, file, line), static_cast<int>(eventId), file, line);
}

inline void set_vector_mask(std::uint64_t maskHigh, std::uint64_t maskLow) {
  npukb::kern::KState& s = npukb::kern::state();
  s.mask[0] = maskLow;
  s.mask[1] = maskHigh;
}
inline std::int64_t get_acc_val() { return AscendC::GetAccVal(); }
// The max/min count register after ReduceMax/ReduceMin: the extreme's bits in the low 32 bits (a half in
// the low 16), its index in the high 32 bits.
inline std::int64_t get_max_min_cnt() {
  const npukb::kern::KState& s = npukb::kern::state();
  return static_cast<std::int64_t>(((s.max_min_index & 0xffffffffull) << 32) | (s.max_min_value & 0xffffffffull));
}

template <typename T>
inline void vcadd(__ubuf__ T* dst, __ubuf__ T* src, std::uint8_t repeat, std::uint16_t dstRepStride,
                  std::uint16_t srcBlkStride, std::uint16_t srcRepStride, bool accumulate) { NPUKB_CALLER;
  AscendC::sim::vcadd_run(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, accumulate, file, line);
}

// Accumulate mode without a destination (the sum is read back with get_acc_val / GetAccVal).
template <typename T>
inline void vcadd(std::nullptr_t, __ubuf__ T* src, std::uint8_t repeat, std::uint16_t dstRepStride,
                  std::uint16_t srcBlkStride, std::uint16_t srcRepStride, bool accumulate) { NPUKB_CALLER;
  if (!accumulate) npukb::violation("vcadd", "dst is null but the accumulate mode is off: the sums have nowhere to go", file, line);
  AscendC::sim::vcadd_run<T>(nullptr, src, repeat, dstRepStride, srcBlkStride, srcRepStride, true, file, line);
}

template <typename T>
inline void vector_dup(__ubuf__ T* dst, T value, std::uint8_t repeat, std::uint16_t dstBlkStride, std::uint16_t srcBlkStride,
                       std::uint8_t dstRepStride, std::uint8_t srcRepStride) { NPUKB_CALLER;
  static_assert(AscendC::sim::one_of<T, half, float, std::int16_t, std::uint16_t, std::int32_t, std::uint32_t>,
                "vector_dup: unsupported data type");
  (void)srcBlkStride;
  (void)srcRepStride;
  const AscendC::LocalTensor<T> d = AscendC::sim::ub_view(dst, "vector_dup", "dst", file, line);
  const T v = value;
  AscendC::sim::unary_mask("vector_dup", d, d, false, nullptr, 0, repeat, dstBlkStride, dstBlkStride, dstRepStride,
                           dstRepStride, AscendC::kCostSimple, [v](T) -> T { return v; }, file, line);
}

template <typename T>
inline void vor(__ubuf__ T* dst, __ubuf__ T* src0, __ubuf__ T* src1, std::uint8_t repeat, std::uint8_t dstBlkStride,
                std::uint8_t src0BlkStride, std::uint8_t src1BlkStride, std::uint8_t dstRepStride, std::uint8_t src0RepStride,
                std::uint8_t src1RepStride) { NPUKB_CALLER;
  static_assert(AscendC::sim::one_of<T, std::int16_t, std::uint16_t>, "vor: supports int16_t and uint16_t");
  const AscendC::LocalTensor<T> d = AscendC::sim::ub_view(dst, "vor", "dst", file, line);
  const AscendC::LocalTensor<T> a = AscendC::sim::ub_view(src0, "vor", "src0", file, line);
  const AscendC::LocalTensor<T> b = AscendC::sim::ub_view(src1, "vor", "src1", file, line);
  const AscendC::BinaryRepeatParams p(dstBlkStride, src0BlkStride, src1BlkStride, dstRepStride, src0RepStride, src1RepStride);
  AscendC::sim::binary_mask("vor", d, a, b, false, nullptr, 0, repeat, p, AscendC::kCostSimple,
                            [](T x, T y) -> T { return static_cast<T>(x | y); }, file, line);
}

// 16 x 16 transpose of 2-byte elements (512 bytes each side).
inline void vtranspose(__ubuf__ std::uint16_t* dst, __ubuf__ std::uint16_t* src) { NPUKB_CALLER;
  const AscendC::LocalTensor<std::uint16_t> d = AscendC::sim::ub_view(dst, "vtranspose", "dst", file, line);
  const AscendC::LocalTensor<std::uint16_t> s = AscendC::sim::ub_view(src, "vtranspose", "src", file, line);
  AscendC::Transpose(d, s);
}

// UB -> UB move of nBurst bursts of lenBurst 32-byte blocks, gaps in 32-byte blocks.
inline void copy_ubuf_to_ubuf(__ubuf__ void* dst, __ubuf__ void* src, std::uint8_t sid, std::uint16_t nBurst,
                              std::uint16_t lenBurst, std::uint16_t srcGap, std::uint16_t dstGap) { NPUKB_CALLER;
  (void)sid;
  const auto* s8 = static_cast<const std::uint8_t*>(src);
  auto* d8 = static_cast<std::uint8_t*>(dst);
  const AscendC::LocalTensor<std::uint8_t> d = AscendC::sim::ub_view(d8, "copy_ubuf_to_ubuf", "dst", file, line);
  const AscendC::LocalTensor<std::uint8_t> s = AscendC::sim::ub_view(s8, "copy_ubuf_to_ubuf", "src", file, line);
  AscendC::DataCopy(d, s, AscendC::DataCopyParams(nBurst, lenBurst, srcGap, dstGap));
}

template <typename T>
inline void set_va_reg_sb(ub_addr8_t reg, T* addrs) { NPUKB_CALLER;
  static_assert(sizeof(T) == 8 && std::is_integral_v<T>, "set_va_reg_sb: takes an array of 8 uint64_t addresses");
  if (static_cast<unsigned>(reg) > 7) npukb::violation("set_va_reg_sb", "no such VA register", file, line);
  npukb::kern::KState& s = npukb::kern::state();
  for (int i = 0; i < 8; ++i) s.va[reg][i] = static_cast<std::uint64_t>(addrs[i]);
}

// TransDataTo5HD's instruction for 2-byte data with its address lists in two consecutive VA registers
// (dst, dst + 1 and src, src + 1); see trans_data.h for the transposition.
inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, std::uint8_t repeat, std::uint16_t dstStride,
                                  std::uint16_t srcStride) { NPUKB_CALLER;
  if (static_cast<unsigned>(dst) > 6 || static_cast<unsigned>(src) > 6) {
    npukb::violation("scatter_vnchwconv_b16", "an address list needs two consecutive VA registers (VA0..VA6 first)", file, line);
  }
  const npukb::kern::KState& s = npukb::kern::state();
  std::uint64_t d[16], sr[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = s.va[dst + i / 8][i % 8];
    sr[i] = s.va[src + i / 8][i % 8];
  }
  AscendC::sim::trans_5hd(d, sr, 2, AscendC::TransDataTo5HDParams(false, false, repeat, dstStride, srcStride), file, line);
}
