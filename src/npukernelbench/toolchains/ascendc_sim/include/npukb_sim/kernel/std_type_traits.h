// npukb_sim/kernel/std_type_traits.h -- AscendC::Std's type traits (Utils API, C++标准库/类型特性):
// integral_constant (true_type, false_type, Int<v>), is_same / is_same_v, is_void, is_integral,
// is_floating_point, is_array, is_pointer, is_reference, is_const, is_base_of, is_convertible,
// conditional, enable_if / enable_if_t, add_const / add_volatile / add_cv / add_pointer /
// add_lvalue_reference / add_rvalue_reference, remove_const / remove_volatile / remove_cv /
// remove_reference / remove_pointer, with the `_t` aliases the pages use (add_const_t, add_volatile_t,
// add_cv_t, add_lvalue_reference_t, add_rvalue_reference_t, remove_const_t, remove_volatile_t,
// remove_cv_t, remove_reference_t, remove_pointer_t) and remove_cvref_t (named by the Layout pages).
//
// Device code has no C++ library of its own: these are AscendC's own types, distinct from std's (an
// AscendC::Std trait is not a std::integral_constant), written here from the pages' semantics with
// partial specialisations, SFINAE and the compiler's __is_base_of. is_integral counts the standard
// integer types (bool, the char types, short, int, long, long long, signed and unsigned);
// is_floating_point float, double and long double, each also cv-qualified. is_convertible<From, To> is
// an implicit conversion of an rvalue of From (void to void counts; nothing converts to an array or a
// function type). Helpers live in AscendC::Std::sim_detail. Clean-room part of ascendc-sim.
#pragma once
#include <cstddef>

namespace AscendC {
namespace Std {

// ---- integral_constant ---------------------------------------------------------------------------
template <typename Tp, Tp v>
struct integral_constant {
  static constexpr const Tp value = v;
  using value_type = Tp;
  using type = integral_constant;
  inline constexpr operator value_type() const noexcept { return value; }
  inline constexpr value_type operator()() const noexcept { return value; }
};

using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;

template <size_t v>
using Int = integral_constant<size_t, v>;

// ---- conditional, enable_if ----------------------------------------------------------------------
template <bool Bp, typename If, typename Then>
struct conditional {
  using type = If;
};
template <typename If, typename Then>
struct conditional<false, If, Then> {
  using type = Then;
};

template <bool Bp, typename Tp = void>
struct enable_if {};
template <typename Tp>
struct enable_if<true, Tp> {
  using type = Tp;
};
template <bool Bp, typename Tp = void>
using enable_if_t = typename enable_if<Bp, Tp>::type;

// ---- is_same -------------------------------------------------------------------------------------
template <typename Tp, typename Up>
struct is_same : false_type {};
template <typename Tp>
struct is_same<Tp, Tp> : true_type {};
template <typename Tp, typename Up>
inline constexpr bool is_same_v = is_same<Tp, Up>::value;

// ---- remove_* ------------------------------------------------------------------------------------
template <typename Tp>
struct remove_const {
  using type = Tp;
};
template <typename Tp>
struct remove_const<const Tp> {
  using type = Tp;
};
template <typename Tp>
using remove_const_t = typename remove_const<Tp>::type;

template <typename Tp>
struct remove_volatile {
  using type = Tp;
};
template <typename Tp>
struct remove_volatile<volatile Tp> {
  using type = Tp;
};
template <typename Tp>
using remove_volatile_t = typename remove_volatile<Tp>::type;

template <typename Tp>
struct remove_cv {
  using type = typename remove_const<typename remove_volatile<Tp>::type>::type;
};
template <typename Tp>
using remove_cv_t = typename remove_cv<Tp>::type;

template <typename Tp>
struct remove_reference {
  using type = Tp;
};
template <typename Tp>
struct remove_reference<Tp&> {
  using type = Tp;
};
template <typename Tp>
struct remove_reference<Tp&&> {
  using type = Tp;
};
template <typename Tp>
using remove_reference_t = typename remove_reference<Tp>::type;

template <typename Tp>
using remove_cvref_t = remove_cv_t<remove_reference_t<Tp>>;

// the pointer's own cv-qualifiers go with it: remove_pointer<int* const>::type is int
template <typename Tp>
struct remove_pointer {
  using type = Tp;
};
template <typename Tp>
struct remove_pointer<Tp*> {
  using type = Tp;
};
template <typename Tp>
struct remove_pointer<Tp* const> {
  using type = Tp;
};
template <typename Tp>
struct remove_pointer<Tp* volatile> {
  using type = Tp;
};
template <typename Tp>
struct remove_pointer<Tp* const volatile> {
  using type = Tp;
};
template <typename Tp>
using remove_pointer_t = typename remove_pointer<Tp>::type;

// ---- add_* ---------------------------------------------------------------------------------------
// A reference or a function type takes no cv-qualifier: add_const<int&>::type is int&.
template <typename Tp>
struct add_const {
  using type = const Tp;
};
template <typename Tp>
using add_const_t = typename add_const<Tp>::type;

template <typename Tp>
struct add_volatile {
  using type = volatile Tp;
};
template <typename Tp>
using add_volatile_t = typename add_volatile<Tp>::type;

template <typename Tp>
struct add_cv {
  using type = const volatile Tp;
};
template <typename Tp>
using add_cv_t = typename add_cv<Tp>::type;

namespace sim_detail {
template <typename...>
using void_t = void;

// T& / T&& / remove_reference_t<T>* where that type exists; T itself where it does not (void, a
// function type with cv- or ref-qualifiers).
template <typename Tp, typename = void>
struct lref {
  using type = Tp;
};
template <typename Tp>
struct lref<Tp, void_t<Tp&>> {
  using type = Tp&;
};
template <typename Tp, typename = void>
struct rref {
  using type = Tp;
};
template <typename Tp>
struct rref<Tp, void_t<Tp&&>> {
  using type = Tp&&;
};
template <typename Tp, typename = void>
struct ptr {
  using type = Tp;
};
template <typename Tp>
struct ptr<Tp, void_t<typename remove_reference<Tp>::type*>> {
  using type = typename remove_reference<Tp>::type*;
};
}  // namespace sim_detail

template <typename Tp>
struct add_pointer {
  using type = typename sim_detail::ptr<Tp>::type;
};

template <typename Tp>
struct add_lvalue_reference {
  using type = typename sim_detail::lref<Tp>::type;
};
template <typename Tp>
using add_lvalue_reference_t = typename add_lvalue_reference<Tp>::type;

template <typename Tp>
struct add_rvalue_reference {
  using type = typename sim_detail::rref<Tp>::type;
};
template <typename Tp>
using add_rvalue_reference_t = typename add_rvalue_reference<Tp>::type;

// ---- is_* ----------------------------------------------------------------------------------------
namespace sim_detail {
template <typename Tp>
struct integral : false_type {};
#define NPUKB_STD_INTEGRAL(T) \
  template <>                 \
  struct integral<T> : true_type {};
NPUKB_STD_INTEGRAL(bool)
NPUKB_STD_INTEGRAL(char)
NPUKB_STD_INTEGRAL(signed char)
NPUKB_STD_INTEGRAL(unsigned char)
NPUKB_STD_INTEGRAL(wchar_t)
#ifdef __cpp_char8_t
NPUKB_STD_INTEGRAL(char8_t)
#endif
NPUKB_STD_INTEGRAL(char16_t)
NPUKB_STD_INTEGRAL(char32_t)
NPUKB_STD_INTEGRAL(short)
NPUKB_STD_INTEGRAL(unsigned short)
NPUKB_STD_INTEGRAL(int)
NPUKB_STD_INTEGRAL(unsigned int)
NPUKB_STD_INTEGRAL(long)
NPUKB_STD_INTEGRAL(unsigned long)
NPUKB_STD_INTEGRAL(long long)
NPUKB_STD_INTEGRAL(unsigned long long)
#undef NPUKB_STD_INTEGRAL

template <typename Tp>
struct floating : false_type {};
template <>
struct floating<float> : true_type {};
template <>
struct floating<double> : true_type {};
template <>
struct floating<long double> : true_type {};

template <typename Tp>
struct pointer : false_type {};
template <typename Tp>
struct pointer<Tp*> : true_type {};
}  // namespace sim_detail

template <typename Tp>
struct is_void : is_same<typename remove_cv<Tp>::type, void> {};

template <typename T>
struct is_integral : sim_detail::integral<typename remove_cv<T>::type> {};

template <typename T>
struct is_floating_point : sim_detail::floating<typename remove_cv<T>::type> {};

template <typename Tp>
struct is_array : false_type {};
template <typename Tp>
struct is_array<Tp[]> : true_type {};
template <typename Tp, size_t N>
struct is_array<Tp[N]> : true_type {};

template <typename Tp>
struct is_pointer : sim_detail::pointer<typename remove_cv<Tp>::type> {};

template <typename Tp>
struct is_reference : false_type {};
template <typename Tp>
struct is_reference<Tp&> : true_type {};
template <typename Tp>
struct is_reference<Tp&&> : true_type {};

template <typename Tp>
struct is_const : false_type {};
template <typename Tp>
struct is_const<const Tp> : true_type {};

// Base is Derived or one of its (direct, indirect, virtual, ambiguous, inaccessible) bases; both
// classes. A class is its own base.
template <typename Base, typename Derived>
struct is_base_of : integral_constant<bool, __is_base_of(Base, Derived)> {};

namespace sim_detail {
template <typename Tp>
typename add_rvalue_reference<Tp>::type declval() noexcept;

template <typename To>
void accept(To) noexcept;

template <typename Tp>
struct is_function_type : integral_constant<bool, !is_const<const Tp>::value && !is_reference<Tp>::value> {};

template <typename From, typename To, typename = void>
struct implicitly_converts : false_type {};
template <typename From, typename To>
struct implicitly_converts<From, To, void_t<decltype(accept<To>(declval<From>()))>> : true_type {};

template <typename From, typename To, bool ToVoid = is_void<To>::value,
          bool ToUnreturnable = is_array<To>::value || is_function_type<To>::value>
struct convertible : implicitly_converts<From, To> {};
template <typename From, typename To, bool ToUnreturnable>
struct convertible<From, To, true, ToUnreturnable> : is_void<From> {};
template <typename From, typename To>
struct convertible<From, To, false, true> : false_type {};
}  // namespace sim_detail

template <typename From, typename To>
struct is_convertible : sim_detail::convertible<From, To> {};

}  // namespace Std
}  // namespace AscendC
