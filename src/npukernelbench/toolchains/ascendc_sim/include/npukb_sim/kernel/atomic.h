// npukb_sim/kernel/atomic.h -- atomic operations of data moves into GM (原子操作): SetAtomicAdd / Max /
// Min / Type, DisableDmaAtomic (and its old name SetAtomicNone), SetStoreAtomicConfig /
// GetStoreAtomicConfig, and the store every UB/L1/L0C -> GM move goes through. Clean-room part of ascendc-sim.
//
// The device keeps one atomic configuration per core: a data type (AtomicDtype; ATOMIC_NONE = off) and an
// operation (sum, max, min). While a type is set, every move into GM combines each element with the one
// already there, element by element in that type, whatever type the move's own tensors have (a float
// configuration applied to int32 data adds the bit patterns as floats, as the device does). The scalar
// atomics AtomicAdd / AtomicCas / ... are not in the 910B's API (documented as unsupported there).
#pragma once
#include <cstdint>
#include <type_traits>

#include "npukb_sim/kernel/state.h"
#include "npukb_sim/kernel/types.h"

namespace AscendC {
namespace sim {

template <typename T>
constexpr int atomic_dtype_of() {
  if constexpr (std::is_same_v<T, float>) return static_cast<int>(AtomicDtype::ATOMIC_F32);
  else if constexpr (std::is_same_v<T, half>) return static_cast<int>(AtomicDtype::ATOMIC_F16);
  else if constexpr (std::is_same_v<T, std::int16_t>) return static_cast<int>(AtomicDtype::ATOMIC_S16);
  else if constexpr (std::is_same_v<T, std::int32_t>) return static_cast<int>(AtomicDtype::ATOMIC_S32);
  else if constexpr (std::is_same_v<T, std::int8_t>) return static_cast<int>(AtomicDtype::ATOMIC_S8);
  else if constexpr (std::is_same_v<T, bfloat16_t>) return static_cast<int>(AtomicDtype::ATOMIC_BF16);
  else return 0;
}
template <typename T>
constexpr bool atomic_type_ok = atomic_dtype_of<T>() != 0;

// op: 0 off, 1 sum, 2 max, 3 min (KState::atomic_op); kind: the AtomicDtype value (KState::atomic_kind).
inline void set_atomic(int op, int kind) {
  npukb::kern::KState& s = npukb::kern::state();
  s.atomic_op = op;
  s.atomic_kind = kind;
}

template <typename T>
inline void combine(std::uint8_t* dst, const std::uint8_t* src, std::size_t n, int op) {
  for (std::size_t i = 0; i < n; ++i) {
    T a, b;
    __builtin_memcpy(&a, dst + i * sizeof(T), sizeof(T));
    __builtin_memcpy(&b, src + i * sizeof(T), sizeof(T));
    T r;
    if (op == 1) {
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        r = static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));   // wraps
      } else {
        r = static_cast<T>(static_cast<float>(a) + static_cast<float>(b));
      }
    } else if constexpr (std::is_integral_v<T>) {
      r = op == 2 ? (b > a ? b : a) : (b < a ? b : a);
    } else {
      const float fa = static_cast<float>(a), fb = static_cast<float>(b);
      r = op == 2 ? (fb > fa ? b : a) : (fb < fa ? b : a);
    }
    __builtin_memcpy(dst + i * sizeof(T), &r, sizeof(T));
  }
}

// Store `bytes` from src into GM at dst under the core's atomic configuration.
inline void atomic_store_bytes(std::uint8_t* dst, const std::uint8_t* src, std::size_t bytes) {
  const npukb::kern::KState& s = npukb::kern::state();
  if (s.atomic_op == 0 || s.atomic_kind == 0) {
    __builtin_memcpy(dst, src, bytes);
    return;
  }
  const int op = s.atomic_op;
  switch (static_cast<AtomicDtype>(s.atomic_kind)) {
    case AtomicDtype::ATOMIC_F32: combine<float>(dst, src, bytes / 4, op); break;
    case AtomicDtype::ATOMIC_F16: combine<half>(dst, src, bytes / 2, op); break;
    case AtomicDtype::ATOMIC_S16: combine<std::int16_t>(dst, src, bytes / 2, op); break;
    case AtomicDtype::ATOMIC_S32: combine<std::int32_t>(dst, src, bytes / 4, op); break;
    case AtomicDtype::ATOMIC_S8: combine<std::int8_t>(dst, src, bytes, op); break;
    case AtomicDtype::ATOMIC_BF16: combine<bfloat16_t>(dst, src, bytes / 2, op); break;
    default: __builtin_memcpy(dst, src, bytes); break;
  }
}

// Write n elements to GM honouring the atomic configuration.
template <typename T>
inline void gm_store(T* dst, const T* src, std::size_t n) {
  atomic_store_bytes(reinterpret_cast<std::uint8_t*>(dst), reinterpret_cast<const std::uint8_t*>(src), n * sizeof(T));
}

}  // namespace sim

template <typename T>
inline void SetAtomicAdd() {
  static_assert(sim::atomic_type_ok<T>, "SetAtomicAdd supports float, half, bfloat16_t, int8_t, int16_t, int32_t");
  sim::set_atomic(1, sim::atomic_dtype_of<T>());
}
template <typename T>
inline void SetAtomicMax() {
  static_assert(sim::atomic_type_ok<T>, "SetAtomicMax supports float, half, bfloat16_t, int8_t, int16_t, int32_t");
  sim::set_atomic(2, sim::atomic_dtype_of<T>());
}
template <typename T>
inline void SetAtomicMin() {
  static_assert(sim::atomic_type_ok<T>, "SetAtomicMin supports float, half, bfloat16_t, int8_t, int16_t, int32_t");
  sim::set_atomic(3, sim::atomic_dtype_of<T>());
}
// Sets the data type of the configuration (a type other than none turns the operation on; sum after
// DisableDmaAtomic).
template <typename T>
inline void SetAtomicType() {
  static_assert(sim::atomic_type_ok<T>, "SetAtomicType supports float, half, bfloat16_t, int8_t, int16_t, int32_t");
  const int op = npukb::kern::state().atomic_op;
  sim::set_atomic(op == 0 ? 1 : op, sim::atomic_dtype_of<T>());
}
inline void DisableDmaAtomic() { sim::set_atomic(0, 0); }
inline void SetAtomicNone() { DisableDmaAtomic(); }

// The configuration as two fields: the type (0 none, 1 float, 2 half, 3 int16_t, 4 int32_t, 5 int8_t,
// 6 bfloat16_t) and the operation (0 sum; SetAtomicMax / SetAtomicMin read back as 1 / 2).
template <AtomicDtype type, AtomicOp op>
inline void SetStoreAtomicConfig() {
  if (type == AtomicDtype::ATOMIC_NONE) sim::set_atomic(0, 0);
  else sim::set_atomic(static_cast<int>(op) + 1, static_cast<int>(type));
}
inline void GetStoreAtomicConfig(std::uint16_t& atomicType, std::uint16_t& atomicOp) {
  const npukb::kern::KState& s = npukb::kern::state();
  const bool on = s.atomic_op != 0 && s.atomic_kind != 0;
  atomicType = static_cast<std::uint16_t>(on ? s.atomic_kind : 0);
  atomicOp = static_cast<std::uint16_t>(on ? s.atomic_op - 1 : 0);
}

}  // namespace AscendC
