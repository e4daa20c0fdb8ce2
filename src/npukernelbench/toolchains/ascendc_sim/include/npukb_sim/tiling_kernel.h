// npukb_sim/tiling_kernel.h -- kernel-side tiling macros: GET_TILING_DATA & co., TILING_KEY_IS,
// KERNEL_TASK_TYPE_DEFAULT. Part of the ascendc-sim clean-room simulator; included by kernel_operator.h.
//
// GET_TILING_DATA(name, tiling) declares the tiling class registered for the operator
// (REGISTER_TILING_DATA_CLASS in op_host). As in the real build, the kernel never sees the host
// class: the build generates a plain struct with the same byte layout (force-included header that
// defines NPUKB_TILING_TYPE) from the registered class layouts.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npukb_sim/kernel_macros.h"
#include "npukb_sim/runtime.h"

namespace npukb {

// The launch's tiling key (TilingContext::SetTilingKey); defined by the launcher.
std::uint64_t launch_tiling_key();

template <std::uint64_t Key>
inline bool tiling_key_is() {
  return launch_tiling_key() == Key;
}

inline void load_tiling(void* dst, std::size_t bytes, const void* tiling, const char* api, const char* file,
                        int line) {
  check_gm(tiling, bytes, false, api, file, line);
  std::memcpy(dst, tiling, bytes);
}

template <bool Registered = false>
struct NoTilingClassRegistered {
  static_assert(Registered,
                "GET_TILING_DATA: no tiling data class is registered for this operator "
                "(REGISTER_TILING_DATA_CLASS(<OpType>, <Class>) in op_host); for a plain struct use "
                "GET_TILING_DATA_WITH_STRUCT(Struct, name, tiling)");
};

template <typename T>
struct is_char_array : std::false_type {};
template <std::size_t N>
struct is_char_array<const char (&)[N]> : std::true_type {};

template <typename T>
struct PlainTilingStruct {
  static_assert(std::is_trivially_copyable<T>::value,
                "GET_TILING_DATA_WITH_STRUCT: the tiling type must be a plain (trivially copyable) struct");
  using type = T;
};

}  // namespace npukb

#ifndef NPUKB_TILING_TYPE
#define NPUKB_TILING_TYPE ::npukb::NoTilingClassRegistered<>
#endif

#define GET_TILING_DATA(tiling_data, tiling_arg) \
  NPUKB_TILING_TYPE tiling_data;                 \
  ::npukb::load_tiling(&tiling_data, sizeof(tiling_data), (tiling_arg), "GET_TILING_DATA", __FILE__, __LINE__)

#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg)                             \
  typename ::npukb::PlainTilingStruct<tiling_struct>::type tiling_data;                                \
  ::npukb::load_tiling(&tiling_data, sizeof(tiling_data), (tiling_arg), "GET_TILING_DATA_WITH_STRUCT", \
                       __FILE__, __LINE__)

#define GET_TILING_DATA_MEMBER(tiling_type, member, var, tiling_arg)                                    \
  decltype(tiling_type::member) var;                                                                   \
  ::npukb::load_tiling(&var, sizeof(var),                                                              \
                       reinterpret_cast<const std::uint8_t*>(tiling_arg) + offsetof(tiling_type, member), \
                       "GET_TILING_DATA_MEMBER", __FILE__, __LINE__)

#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_arg)                              \
  ::npukb::check_gm((tiling_arg), sizeof(tiling_struct), false, "GET_TILING_DATA_PTR_WITH_STRUCT", __FILE__, \
                    __LINE__);                                                                          \
  const tiling_struct* dst_ptr = reinterpret_cast<const tiling_struct*>(tiling_arg)

// A copy on the stack of a tiling struct (or of a nested struct member) that dst_ptr points to; the
// source is a pointer from GET_TILING_DATA_PTR_WITH_STRUCT (into the tiling bytes, bounds checked).
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr)                                            \
  tiling_struct npukb_tiling_copy_##dst_ptr;                                                                \
  ::npukb::load_tiling(&npukb_tiling_copy_##dst_ptr, sizeof(tiling_struct), (src_ptr), "COPY_TILING_WITH_STRUCT", \
                       __FILE__, __LINE__);                                                                 \
  tiling_struct* dst_ptr = &npukb_tiling_copy_##dst_ptr
// A copy on the stack of arr_count elements of an array member; dst_ptr points to its first element.
#define COPY_TILING_WITH_ARRAY(arr_type, arr_count, src_ptr, dst_ptr)                                       \
  arr_type npukb_tiling_copy_##dst_ptr[arr_count];                                                          \
  ::npukb::load_tiling(npukb_tiling_copy_##dst_ptr, sizeof(arr_type) * (arr_count), (src_ptr),              \
                       "COPY_TILING_WITH_ARRAY", __FILE__, __LINE__);                                       \
  arr_type* dst_ptr = npukb_tiling_copy_##dst_ptr

#define TILING_KEY_IS(key) (::npukb::tiling_key_is<static_cast<std::uint64_t>(key)>())
// The branch of either of two tiling keys.
#define TILING_KEY_LIST(key1, key2) (TILING_KEY_IS(key1) || TILING_KEY_IS(key2))

// Registrations tell the device build's tiling parser which struct the tiling bytes hold; the simulator
// copies the bytes into whatever struct GET_TILING_DATA_WITH_STRUCT names, so they only check their
// arguments: a complete class type, and for REGISTER_TILING_FOR_TILINGKEY a string (the expression over
// TILING_KEY_VAR).
#define REGISTER_TILING_DEFAULT(tiling_struct)                                                      \
  do {                                                                                              \
    static_assert(std::is_class<tiling_struct>::value && sizeof(tiling_struct) > 0,                 \
                  "REGISTER_TILING_DEFAULT: the argument must be the TilingData struct (a class type)"); \
  } while (0)
// The kernel reads its tiling through plain structs that it does not register (GET_TILING_DATA_WITH_STRUCT
// and friends).
#define REGISTER_NONE_TILING \
  do {                       \
  } while (0)
#define REGISTER_TILING_FOR_TILINGKEY(condition, tiling_struct)                                          \
  do {                                                                                                    \
    static_assert(::npukb::is_char_array<decltype(condition)>::value,                                     \
                  "REGISTER_TILING_FOR_TILINGKEY: the condition is a string over TILING_KEY_VAR");       \
    static_assert(std::is_class<tiling_struct>::value && sizeof(tiling_struct) > 0,                       \
                  "REGISTER_TILING_FOR_TILINGKEY: the second argument must be a TilingData struct (a class type)"); \
  } while (0)

enum KernelMetaType {
  KERNEL_TYPE_AIV_ONLY = 0,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};

#define KERNEL_TASK_TYPE_DEFAULT(task_type)                               \
  do {                                                                    \
    static_assert((task_type) >= 0 && (task_type) < KERNEL_TYPE_MAX,     \
                  "KERNEL_TASK_TYPE_DEFAULT: unknown kernel type");       \
  } while (0)
#define KERNEL_TASK_TYPE(key, task_type)                              \
  do {                                                                \
    (void)(key);                                                      \
    static_assert((task_type) >= 0 && (task_type) < KERNEL_TYPE_MAX, \
                  "KERNEL_TASK_TYPE: unknown kernel type");           \
  } while (0)
