// npukb_sim/kernel/sys_var.h -- the 910B's system variables and utilities (工具接口): GetBlockIdx /
// GetBlockNum / GetSubBlockIdx / GetSubBlockNum / GetTaskRatio, GetDataBlockSizeInBytes, GetArchVersion,
// GetProgramCounter, GetSystemCycle, InitSocState, Async; workspace pointers; cache control (缓存控制:
// DataCacheCleanAndInvalid, DataCachePreload, ICachePreLoad, GetICachePreloadStatus); scalar computation
// (标量计算: GetBitCount, CountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue, the scalar Cast
// forms, Read/WriteGmByPassDCache and the older Scalar* / ToBfloat16 / ToFloat names); special registers
// (特殊寄存器访问: SetCtrlSpr / GetCtrlSpr of CTRL[48], Set/GetSaturationFlag); IsSameType, Conditional,
// BLOCK_CUBE, AlignUp. APIs the documentation lists as unsupported on the 910B (NumericLimits,
// GetUBSizeInBytes, GetVecLen, CeilDivision, Nop, GetSpr, ClearSpr, the scalar AtomicAdd family) are not
// declared, so a kernel using them fails to compile as on the device. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/tensor.h"

namespace AscendC {

// ---- system variables ----------------------------------------------------------------------------
inline std::int64_t GetBlockIdx() { return npukb::block().block_idx; }
inline std::int64_t GetBlockNum() { return npukb::block().block_num; }
inline std::int64_t GetSubBlockIdx() { return npukb::block().sub_block_idx; }
inline std::int64_t GetSubBlockNum() { return npukb::block().sub_block_num; }
// The AIV : AIC ratio of the launch (2 in a MIX_AIC_1_2 kernel's vector cores, else 1).
inline std::int64_t GetTaskRatio() { return npukb::block().sub_block_num; }
inline constexpr std::int16_t GetDataBlockSizeInBytes() { return 32; }
// The AI processor's architecture version, hex-coded (the 910B's dav-c220: 0x2201, as __NPU_ARCH__).
inline void GetArchVersion(std::uint32_t& coreVersion) { coreVersion = 0x2201; }
// A value that identifies the calling code location (the return address into the kernel).
__attribute__((noinline)) inline std::int64_t GetProgramCounter() {
  return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}
// The block's cycle count: the cost model's estimate (its scalar-unit clock).
inline std::int64_t GetSystemCycle() {
  npukb::kern::KState& s = npukb::kern::state();
  return static_cast<std::int64_t>(s.issue);
}

// Resets the core state a previous operator may have left (910B: atomic configuration off, mask mode
// normal, vector mask all ones).
inline void InitSocState() {
  npukb::kern::KState& s = npukb::kern::state();
  s.atomic_op = 0;
  s.atomic_kind = 0;
  s.counter_mode = false;
  s.mask[0] = ~0ull;
  s.mask[1] = ~0ull;
}

// Async<engine, fn>(args...): runs fn(args...) on the cores of `engine` only (the if ASCEND_IS_AIV /
// ASCEND_IS_AIC branches in one call).
enum class EngineType : std::uint8_t { AIC, AIV };
template <EngineType engine, auto funPtr, class... Args>
inline void Async(Args... args) {
  const int core = npukb::block().core_type;
  if ((engine == EngineType::AIC && core == npukb::CORE_AIC) || (engine == EngineType::AIV && core == npukb::CORE_AIV)) {
    funPtr(args...);
  }
}

// ---- workspace -----------------------------------------------------------------------------------
// The kernel's workspace argument serves both: GetUserWorkspace hands it back unchanged (the simulator
// does not carve the library's system part off the user part). GetSysWorkSpacePtr is the pointer
// SetSysWorkspace set in this block, else the launch's workspace (the framework's setting).
inline __gm__ std::uint8_t* GetUserWorkspace(__gm__ std::uint8_t* workspace) { return workspace; }
inline __gm__ std::uint8_t* GetSysWorkSpacePtr() {
  std::uint8_t* set = npukb::kern::state().sys_workspace;
  return set != nullptr ? set : npukb::sys_workspace();
}
inline void SetSysWorkspace(__gm__ std::uint8_t* workspace) { npukb::kern::state().sys_workspace = workspace; }

// ---- cache control -------------------------------------------------------------------------------
// The simulator runs scalar GM accesses straight on memory (no data cache to go stale), so cleaning and
// invalidating changes no data; each call costs a scalar instruction, the whole cache a GM round trip.
enum class CacheLine : std::uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : std::uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
namespace sim {
template <CacheLine entireType, DcciDst dcciDst>
inline void dcci() {
  static_assert(dcciDst != DcciDst::CACHELINE_ATOMIC,
                "DataCacheCleanAndInvalid: CACHELINE_ATOMIC is not supported on the Atlas A2/A3 (910B)");
  npukb::kern::KState& s = npukb::kern::state();
  s.issue += entireType == CacheLine::ENTIRE_DATA_CACHE ? npukb::kern::kScalarGmCycles : npukb::kern::kIssueCycles;
  npukb::kern::publish(s);
}
}  // namespace sim
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
  sim::dcci<entireType, dcciDst>();
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
  (void)dst;
  sim::dcci<entireType, dcciDst>();
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  (void)dst;
  sim::dcci<entireType, DcciDst::CACHELINE_OUT>();
}
// Preloads one cache line of src from byte cacheOffset (a scalar instruction; the data cache is not modelled).
template <typename T>
inline void DataCachePreload(const GlobalTensor<std::uint64_t>& src, const T cacheOffset) {
  static_assert(std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::int64_t>,
                "DataCachePreload: cacheOffset is int16_t or int64_t");
  (void)src;
  (void)cacheOffset;
  npukb::kern::state().issue += npukb::kern::kIssueCycles;
}
// Instruction preload: preFetchLen in 2 KB units, below ICache / 2 KB (16 KB on a vector core, 32 KB on a
// cube core). The preload completes at once here (GetICachePreloadStatus reads 0).
inline void ICachePreLoad(const std::int64_t preFetchLen) { NPUKB_CALLER;
  const std::int64_t limit = npukb::block().core_type == npukb::CORE_AIC ? 16 : 8;
  if (preFetchLen < 0 || preFetchLen >= limit) {
    npukb::violation("ICachePreLoad", "preFetchLen " + npukb::kern::num(preFetchLen) + " (2 KB units) must be below " +
                     npukb::kern::num(limit) + " (the ICache size / 2 KB)", file, line);
  }
  npukb::kern::state().issue += npukb::kern::kIssueCycles;
}
inline std::int64_t GetICachePreloadStatus() { return 0; }

// ---- scalar computation --------------------------------------------------------------------------
template <int countValue>
inline std::int64_t GetBitCount(std::uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetBitCount: countValue is 0 or 1");
  const int ones = __builtin_popcountll(valueIn);
  return countValue == 1 ? ones : 64 - ones;
}
inline std::int64_t CountLeadingZero(std::uint64_t valueIn) { return valueIn == 0 ? 64 : __builtin_clzll(valueIn); }
// The bits after the sign bit equal to it, from the top; -1 for 0 and -1 (every bit the sign).
inline std::int64_t CountBitsCntSameAsSignBit(std::int64_t valueIn) {
  if (valueIn == 0 || valueIn == -1) return -1;
  return __builtin_clrsbll(valueIn);
}
// The position of the first countValue bit from the least significant end, or -1.
template <int countValue>
inline std::int64_t GetSFFValue(std::uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetSFFValue: countValue is 0 or 1");
  const std::uint64_t v = countValue == 1 ? valueIn : ~valueIn;
  return v == 0 ? -1 : __builtin_ctzll(v);
}
// The names before CANN 9 (real kernels still use them).
template <int countValue>
inline std::int64_t ScalarGetCountOfValue(std::uint64_t valueIn) { return GetBitCount<countValue>(valueIn); }
inline std::int64_t ScalarCountLeadingZero(std::uint64_t valueIn) { return CountLeadingZero(valueIn); }
template <int countValue>
inline std::int64_t ScalarGetSFFValue(std::uint64_t valueIn) { return GetSFFValue<countValue>(valueIn); }

namespace sim {
// float -> half rounding to odd: the value truncated toward zero to half precision, its lowest mantissa
// bit set when anything was cut off (an exact value, NaN and infinity convert as they are).
inline half half_round_odd(float f) {
  half h = static_cast<half>(f);   // nearest even
  const float back = static_cast<float>(h);
  if (back == f || f != f || __builtin_isinf(f)) return h;
  std::uint16_t bits;
  __builtin_memcpy(&bits, &h, 2);
  if (__builtin_fabsf(back) > __builtin_fabsf(f)) bits = static_cast<std::uint16_t>(bits - 1);   // toward zero
  bits = static_cast<std::uint16_t>(bits | 1u);
  half r;
  __builtin_memcpy(&r, &bits, 2);
  return r;
}
inline std::int32_t to_int32(float f, RoundMode mode) {
  double r;
  switch (mode) {
    case RoundMode::CAST_ROUND: r = __builtin_round(static_cast<double>(f)); break;
    case RoundMode::CAST_CEIL: r = __builtin_ceil(static_cast<double>(f)); break;
    case RoundMode::CAST_FLOOR: r = __builtin_floor(static_cast<double>(f)); break;
    default: r = __builtin_rint(static_cast<double>(f)); break;   // CAST_RINT: half to even
  }
  if (r != r) return 0;
  if (r >= 2147483647.0) return 2147483647;
  if (r <= -2147483648.0) return -2147483647 - 1;
  return static_cast<std::int32_t>(r);
}
}  // namespace sim
// Scalar conversions: float -> half (CAST_ODD), float -> int32_t (CAST_ROUND / CEIL / FLOOR / RINT).
template <typename T, typename U, RoundMode roundMode>
inline U Cast(T valueIn) {
  static_assert(std::is_same_v<T, float>, "Cast (scalar): the source is float");
  if constexpr (std::is_same_v<U, half>) {
    static_assert(roundMode == RoundMode::CAST_ODD, "Cast (scalar) float -> half rounds with CAST_ODD");
    return sim::half_round_odd(valueIn);
  } else {
    static_assert(std::is_same_v<U, std::int32_t>, "Cast (scalar): float converts to half or int32_t");
    static_assert(roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                      roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT,
                  "Cast (scalar) float -> int32_t rounds with CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT");
    return sim::to_int32(valueIn, roundMode);
  }
}
inline bfloat16_t Cast(const float& fVal) { return bfloat16_t(fVal); }         // CAST_RINT
inline float Cast(const bfloat16_t& bVal) { return static_cast<float>(bVal); }
// (ScalarCast, the name before CANN 9, is in cast.h.)

// GM reads and writes that bypass the data cache (the simulator has none to bypass): a checked scalar
// GM access.
template <typename T>
inline T ReadGmByPassDCache(__gm__ T* addr) { NPUKB_CALLER;
  npukb::check_gm(addr, sizeof(T), false, "ReadGmByPassDCache", file, line);
  npukb::kern::scalar_gm_access(sizeof(T), false);
  T v;
  __builtin_memcpy(&v, addr, sizeof(T));
  return v;
}
template <typename T>
inline void WriteGmByPassDCache(__gm__ T* addr, T value) { NPUKB_CALLER;
  npukb::check_gm(addr, sizeof(T), true, "WriteGmByPassDCache", file, line);
  npukb::kern::scalar_gm_access(sizeof(T), true);
  __builtin_memcpy(addr, &value, sizeof(T));
}

// ---- special registers ---------------------------------------------------------------------------
// The 910B exposes CTRL[48] only: the floating-point saturation mode (0, the default: inf saturates to
// +-MAX and NaN to 0 in half / bfloat16_t computations; 1: inf / NaN kept). The bit is kept and read
// back; the vector instructions do not consult it yet (their results are the unsaturated ones).
enum class SaturationMode : std::uint8_t { FLOAT, CAST };
template <std::int8_t startBit, std::int8_t endBit>
inline void SetCtrlSpr(std::int64_t value) {
  static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit, "SetCtrlSpr: 0 <= startBit <= endBit <= 63");
  static_assert(startBit == 48 && endBit == 48, "SetCtrlSpr: the Atlas A2/A3 (910B) support CTRL[48] only");
  npukb::kern::state().ctrl_spr48 = (value & 1) != 0;
}
template <std::int8_t startBit, std::int8_t endBit>
inline std::int64_t GetCtrlSpr() {
  static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit, "GetCtrlSpr: 0 <= startBit <= endBit <= 63");
  const std::uint64_t reg = static_cast<std::uint64_t>(npukb::kern::state().ctrl_spr48 ? 1 : 0) << 48;
  const int width = endBit - startBit + 1;
  const std::uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  return static_cast<std::int64_t>((reg >> startBit) & mask);
}
template <SaturationMode mode>
inline void SetSaturationFlag(bool enableSat) {
  static_assert(mode == SaturationMode::FLOAT, "SetSaturationFlag: the Atlas A2/A3 (910B) have the FLOAT mode only");
  npukb::kern::state().ctrl_spr48 = !enableSat;   // CTRL[48] 0 is the saturation mode
}
template <SaturationMode mode>
inline bool GetSaturationFlag() {
  static_assert(mode == SaturationMode::FLOAT, "GetSaturationFlag: the Atlas A2/A3 (910B) have the FLOAT mode only");
  return !npukb::kern::state().ctrl_spr48;
}

// ---- small type utilities ------------------------------------------------------------------------
template <typename T, typename U>
struct IsSameType { static constexpr bool value = false; };
template <typename T>
struct IsSameType<T, T> { static constexpr bool value = true; };

// Conditional<cond, A, B>::type: A when cond holds, else B.
template <bool cond, typename A, typename B>
struct Conditional { using type = A; };
template <typename A, typename B>
struct Conditional<false, A, B> { using type = B; };

constexpr std::int32_t BLOCK_CUBE = 16;

// Round `value` up to a multiple of `align` (0 when align is 0). The two operands may differ in type, as
// in real kernels (AlignUp(uint64_t, int32_t)); a kernel's own AlignUp(T, T) template is more specialised
// and wins overload resolution.
template <typename T, typename U>
inline T AlignUp(T value, U align) {
  return align == 0 ? T(0) : static_cast<T>((value + static_cast<T>(align) - 1) / static_cast<T>(align) * static_cast<T>(align));
}

}  // namespace AscendC
