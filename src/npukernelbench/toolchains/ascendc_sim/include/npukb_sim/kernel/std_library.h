// npukb_sim/kernel/std_library.h -- AscendC's C++ standard library (Utils API, C++标准库), apart from
// the type traits (std_type_traits.h, included here):
//  - containers: tuple (with tuple_size / tuple_size_v, tuple_element and tie, as the tuple page uses
//    them), get, make_tuple (unwrap_decay_t);
//  - utilities: IntegerSequence / MakeIntegerSequence, index_sequence, make_index_sequence;
//  - algorithms: max, min.
// The math functions abs and sqrt (数学函数) are documented for the Ascend 950PR / 950DT only, not for
// Atlas A2 / A3: they are not declared, so a kernel using them fails to compile as on the device.
//
// tuple<Tp, Tps...> derives from tuple<Tps...> and stores its first element, as the page describes;
// the page's consequence follows: initialising a tuple from a longer one (`tuple<int, int> a =
// make_tuple(1, 2, 3)`) slices it to its base, the trailing elements (2, 3). A tuple of the same
// length and other element types converts element by element (the make_tuple page's `tuple<uint32_t,
// float, bool> t = make_tuple(22, 3.3, true)`); the documented operator= assigns element by element
// (from a longer tuple, its trailing elements, as the slice). Element types: at most 64, no arrays
// (the pages' limits, compile errors here); get<N> takes an index in [0, size). A tuple of references
// (tie) assigns through its references.
//
// IntegerSequence<T, v...> holds at most 64 values; MakeIntegerSequence<T, N> (N in [0, 64]) is
// IntegerSequence<T, 0, ..., N-1>.
//
// max / min take two operands of the same type (the pages: U is reserved and must be T), one of bool,
// int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, float, int64_t, uint64_t; another type is a
// compile error. Clean-room part of ascendc-sim.
#pragma once
#include <cstddef>
#include <cstdint>

#include "npukb_sim/kernel/std_type_traits.h"

namespace AscendC {
namespace Std {

// ---- tuple ---------------------------------------------------------------------------------------
template <typename... Tps>
class tuple;

template <typename T>
struct tuple_size;
template <typename... Tps>
struct tuple_size<tuple<Tps...>> : integral_constant<size_t, sizeof...(Tps)> {};
template <typename T>
struct tuple_size<const T> : integral_constant<size_t, tuple_size<T>::value> {};
template <typename T>
struct tuple_size<volatile T> : integral_constant<size_t, tuple_size<T>::value> {};
template <typename T>
struct tuple_size<const volatile T> : integral_constant<size_t, tuple_size<T>::value> {};
template <typename T>
inline constexpr size_t tuple_size_v = tuple_size<T>::value;

namespace sim_detail {
template <typename... Tps>
inline constexpr bool always_false = false;

template <size_t N, typename... Tps>
struct nth_type {
  static_assert(always_false<Tps...>, "AscendC::Std::get / tuple_element: the index is out of the tuple's range");
  using type = void;
};
template <typename Tp, typename... Tps>
struct nth_type<0, Tp, Tps...> {
  using type = Tp;
};
template <size_t N, typename Tp, typename... Tps>
struct nth_type<N, Tp, Tps...> : nth_type<N - 1, Tps...> {};

// the base of a tuple<Tps...> that holds its elements from index Drop on
template <size_t Drop, typename... Tps>
struct drop_front {
  using type = tuple<Tps...>;
};
template <size_t Drop, typename Tp, typename... Tps>
struct drop_front<Drop, Tp, Tps...> {
  using type = typename drop_front<Drop - 1, Tps...>::type;
};
template <typename Tp, typename... Tps>
struct drop_front<0, Tp, Tps...> {
  using type = tuple<Tp, Tps...>;
};

// An rvalue-constructor parameter of a reference element: no argument converts to it (the lvalue
// constructor's const Tp& is Tp there already, and two constructors of one signature would clash).
struct no_rvalue_of_reference {
  no_rvalue_of_reference() = delete;
  no_rvalue_of_reference(const no_rvalue_of_reference&) = delete;
};
template <typename Tp>
using rvalue_param = typename conditional<is_reference<Tp>::value, no_rvalue_of_reference, Tp&&>::type;

struct tuple_access;

// decay: references and cv dropped, arrays and functions to pointers
template <typename U, bool Function = !is_const<const U>::value>
struct decay_value {
  using type = typename remove_cv<U>::type;
};
template <typename U>
struct decay_value<U, true> {
  using type = U*;
};
template <typename U>
struct decay_value<U[], false> {
  using type = U*;
};
template <typename U, size_t N>
struct decay_value<U[N], false> {
  using type = U*;
};
template <typename Tp>
struct decay {
  using type = typename decay_value<typename remove_reference<Tp>::type>::type;
};
}  // namespace sim_detail

template <size_t N, typename T>
struct tuple_element;
template <size_t N, typename... Tps>
struct tuple_element<N, tuple<Tps...>> {
  using type = typename sim_detail::nth_type<N, Tps...>::type;
};
template <size_t N, typename T>
struct tuple_element<N, const T> {
  using type = typename add_const<typename tuple_element<N, T>::type>::type;
};
template <size_t N, typename T>
struct tuple_element<N, volatile T> {
  using type = typename add_volatile<typename tuple_element<N, T>::type>::type;
};
template <size_t N, typename T>
struct tuple_element<N, const volatile T> {
  using type = typename add_cv<typename tuple_element<N, T>::type>::type;
};

template <>
class tuple<> {
 public:
  inline constexpr tuple() = default;
  // any tuple is a tuple<> (its empty tail)
};

template <typename Tp, typename... Tps>
class tuple<Tp, Tps...> : public tuple<Tps...> {
  static_assert(sizeof...(Tps) + 1 <= 64, "AscendC::Std::tuple holds at most 64 elements");
  static_assert(!is_array<Tp>::value, "AscendC::Std::tuple: array element types are not supported");
  using Base = tuple<Tps...>;
  friend struct sim_detail::tuple_access;
  template <typename...>
  friend class tuple;

 public:
  inline constexpr tuple() : Base(), value_() {}

  inline constexpr tuple(const Tp& val, const Tps&... params) : Base(params...), value_(val) {}

  inline constexpr tuple(sim_detail::rvalue_param<Tp> val, sim_detail::rvalue_param<Tps>... params)
      : Base(static_cast<Tps&&>(params)...), value_(static_cast<Tp&&>(val)) {}

  // element by element from a tuple of the same length (a longer one slices to its base instead)
  template <typename Head, typename... Args,
            typename enable_if<sizeof...(Args) == sizeof...(Tps) &&
                                   !is_same<tuple<Head, Args...>, tuple<Tp, Tps...>>::value,
                               int>::type = 0>
  inline constexpr tuple(const tuple<Head, Args...>& t)
      : Base(static_cast<const tuple<Args...>&>(t)), value_(t.value_) {}

  tuple(const tuple&) = default;
  tuple(tuple&&) = default;

  inline tuple& operator=(const tuple& t) {
    value_ = t.value_;
    static_cast<Base&>(*this) = static_cast<const Base&>(t);
    return *this;
  }
  inline tuple& operator=(tuple&& t) {
    value_ = static_cast<Tp&&>(t.value_);
    static_cast<Base&>(*this) = static_cast<Base&&>(t);
    return *this;
  }

  template <typename Head, typename... Args>
  inline tuple<Tp, Tps...>& operator=(const tuple<Head, Args...>& t) {
    static_assert(sizeof...(Args) >= sizeof...(Tps), "AscendC::Std::tuple: assigning from a shorter tuple");
    // a longer source assigns its trailing elements (its base of this length), as the slice would
    using Same = typename sim_detail::drop_front<sizeof...(Args) - sizeof...(Tps), Head, Args...>::type;
    value_ = static_cast<const Same&>(t).value_;
    static_cast<Base&>(*this) = t;
    return *this;
  }

 private:
  Tp value_;
};

namespace sim_detail {
struct tuple_access {
  template <size_t N, typename... Tps>
  static constexpr typename tuple_element<N, tuple<Tps...>>::type& at(tuple<Tps...>& t) noexcept {
    return static_cast<typename drop_front<N, Tps...>::type&>(t).value_;
  }
  template <size_t N, typename... Tps>
  static constexpr const typename tuple_element<N, tuple<Tps...>>::type& at(const tuple<Tps...>& t) noexcept {
    return static_cast<const typename drop_front<N, Tps...>::type&>(t).value_;
  }
};
}  // namespace sim_detail

template <size_t N, typename... Tps>
inline typename tuple_element<N, tuple<Tps...>>::type& get(tuple<Tps...>& t) noexcept {
  static_assert(N < sizeof...(Tps), "AscendC::Std::get: the index is out of the tuple's range");
  return sim_detail::tuple_access::at<N>(t);
}

template <size_t N, typename... Tps>
inline const typename tuple_element<N, tuple<Tps...>>::type& get(const tuple<Tps...>& t) noexcept {
  static_assert(N < sizeof...(Tps), "AscendC::Std::get: the index is out of the tuple's range");
  return sim_detail::tuple_access::at<N>(t);
}

template <size_t N, typename... Tps>
inline typename tuple_element<N, tuple<Tps...>>::type&& get(tuple<Tps...>&& t) noexcept {
  static_assert(N < sizeof...(Tps), "AscendC::Std::get: the index is out of the tuple's range");
  using E = typename tuple_element<N, tuple<Tps...>>::type;
  return static_cast<E&&>(sim_detail::tuple_access::at<N>(t));
}

template <size_t N, typename... Tps>
inline const typename tuple_element<N, tuple<Tps...>>::type&& get(const tuple<Tps...>&& t) noexcept {
  static_assert(N < sizeof...(Tps), "AscendC::Std::get: the index is out of the tuple's range");
  using E = typename tuple_element<N, tuple<Tps...>>::type;
  return static_cast<const E&&>(sim_detail::tuple_access::at<N>(t));
}

template <typename Tp>
using unwrap_decay_t = typename sim_detail::decay<Tp>::type;

template <typename... Tps>
inline constexpr tuple<unwrap_decay_t<Tps>...> make_tuple(Tps&&... args) {
  return tuple<unwrap_decay_t<Tps>...>(static_cast<Tps&&>(args)...);
}

template <typename... Tps>
inline constexpr tuple<Tps&...> tie(Tps&... args) noexcept {
  return tuple<Tps&...>(args...);
}

// ---- integer sequences ---------------------------------------------------------------------------
template <typename T, T... Idx>
struct IntegerSequence {
  static_assert(sizeof...(Idx) <= 64, "AscendC::Std::IntegerSequence / index_sequence holds at most 64 values");
};

namespace sim_detail {
template <typename T, T N>
struct make_sequence {
  static_assert(static_cast<long long>(N) >= 0 && N <= 64, "AscendC::Std::make_index_sequence<N>: N must be in [0, 64]");
  using type = IntegerSequence<T, __integer_pack(N)...>;
};
}  // namespace sim_detail

template <typename T, T N>
using MakeIntegerSequence = typename sim_detail::make_sequence<T, N>::type;

template <size_t... Idx>
using index_sequence = IntegerSequence<size_t, Idx...>;

template <size_t N>
using make_index_sequence = MakeIntegerSequence<size_t, N>;

// ---- max, min ----------------------------------------------------------------------------------
namespace sim_detail {
template <typename T, typename... Us>
inline constexpr bool one_of = (is_same<typename remove_cv<T>::type, Us>::value || ...);

template <typename T>
inline constexpr bool minmax_type = one_of<T, bool, std::int8_t, std::uint8_t, std::int16_t, std::uint16_t,
                                           std::int32_t, std::uint32_t, float, std::int64_t, std::uint64_t>;
}  // namespace sim_detail

template <typename T, typename U>
inline T max(const T src0, const U src1) {
  static_assert(is_same<T, U>::value, "AscendC::Std::max: src0 and src1 must have the same data type");
  static_assert(sim_detail::minmax_type<T>, "AscendC::Std::max: supported data types are bool, int8_t, uint8_t, "
                                            "int16_t, uint16_t, int32_t, uint32_t, float, int64_t, uint64_t");
  return src0 < src1 ? src1 : src0;
}

template <typename T, typename U>
inline T min(const T src0, const U src1) {
  static_assert(is_same<T, U>::value, "AscendC::Std::min: src0 and src1 must have the same data type");
  static_assert(sim_detail::minmax_type<T>, "AscendC::Std::min: supported data types are bool, int8_t, uint8_t, "
                                            "int16_t, uint16_t, int32_t, uint32_t, float, int64_t, uint64_t");
  return src1 < src0 ? src1 : src0;
}

}  // namespace Std
}  // namespace AscendC
