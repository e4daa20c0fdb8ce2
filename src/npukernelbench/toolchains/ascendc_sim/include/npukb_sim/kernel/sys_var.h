// npukb_sim/kernel/sys_var.h -- system variables and small kernel utilities: GetBlockIdx / GetBlockNum /
// GetSubBlockIdx / GetSubBlockNum, workspace pointers, the cycle counter (GetSystemCycle),
// DataCacheCleanAndInvalid (a no-op), IsSameType, Conditional, BLOCK_CUBE, AlignUp. Clean-room part of ascendc-sim.
#pragma once
#include <cstdint>

#include "npukb_sim/kernel/tensor.h"

namespace AscendC {

inline std::int64_t GetBlockIdx() { return npukb::block().block_idx; }
inline std::int64_t GetBlockNum() { return npukb::block().block_num; }
inline std::int64_t GetSubBlockIdx() { return npukb::block().sub_block_idx; }
inline std::int64_t GetSubBlockNum() { return npukb::block().sub_block_num; }
inline std::int64_t GetTaskRation() { return npukb::block().sub_block_num; }
inline __gm__ std::uint8_t* GetUserWorkspace(__gm__ std::uint8_t* workspace) { return workspace; }
inline __gm__ std::uint8_t* GetSysWorkSpacePtr() { return npukb::sys_workspace(); }
inline void SetSysWorkspace(__gm__ std::uint8_t*) {}
inline std::int64_t GetSystemCycle() {
  npukb::kern::KState& s = npukb::kern::state();
  return static_cast<std::int64_t>(s.issue);
}
inline void InitSocState() {}

enum class CacheLine : std::uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : std::uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entireType, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

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
