"""AscendC's C++ standard library (Utils API, C++标准库): the type traits, tuple / get / make_tuple,
index_sequence / make_index_sequence and max / min, each checked against its doc page (the pages'
examples, true and false cases, values read back from a kernel), and the documented compile-time limits
(max / min operand types, the tuple's 64 elements, get's index, make_index_sequence's N, the A2/A3-less
abs and sqrt) as compile errors. Kernels written for these tests."""

from __future__ import annotations

import re

import numpy as np
import pytest
from simkit import syntax_check

RUN = "\nvoid run_test() { npukb_test::run_blocks(1, body, nullptr); }\n"


def run_rows(prog, rows: list[tuple[str, int]], decls: str = "", prologue: str = "") -> list[int]:
    """Each row's C++ expression written as int64 to output 0 by a one-block kernel (after `prologue`,
    with `decls` at file scope); returns the values read back."""
    n = len(rows)
    sets = "\n".join(f"  o.SetValue({i}, static_cast<int64_t>({expr}));" for i, (expr, _) in enumerate(rows))
    src = (decls + "\nnamespace S = AscendC::Std;\nstatic void body(void*) {\n"
           "  GlobalTensor<int64_t> o;\n"
           f"  o.SetGlobalBuffer((__gm__ int64_t*)npukb_test::gm_output(0, {n} * 8), {n});\n"
           + prologue + "\n" + sets + "\n}" + RUN)
    ran = prog.run(src)
    assert ran.returncode == 0, ran.stderr
    return prog.output(0, np.int64).tolist()


def check_rows(prog, rows: list[tuple[str, int]], decls: str = "", prologue: str = "") -> None:
    got = run_rows(prog, rows, decls, prologue)
    bad = [(expr, want, g) for (expr, want), g in zip(rows, got, strict=True) if g != want]
    assert not bad, "\n".join(f"{e}: want {w}, got {g}" for e, w, g in bad)


# ---- integral_constant and the is_* predicates ---------------------------------------------------------
PRED_DECLS = """
struct MyStruct { int val; };
class ClassA {};
class ClassB {};
class ClassC {};
using ClassC_alias = ClassC;
template <typename T> class TemplateClass {};
using VoidFn = void(int);
using IntFn = int(int);
using DoubleFn = double(int);
using IntTrue = AscendC::Std::integral_constant<int, 1>;
using IntFalse = AscendC::Std::integral_constant<int, 0>;
// the integral_constant page's compile-time uses
static_assert(AscendC::Std::is_same<IntTrue::value_type, int>::value, "value_type");
static_assert(AscendC::Std::is_same<IntTrue::type, IntTrue>::value, "type");
static_assert(AscendC::Std::is_same<AscendC::Std::true_type, AscendC::Std::integral_constant<bool, true>>::value, "");
static_assert(AscendC::Std::is_same<AscendC::Std::false_type::value_type, bool>::value, "");
static_assert(AscendC::Std::is_same<AscendC::Std::Int<0>::value_type, size_t>::value, "Int is size_t");
static_assert(AscendC::Std::is_same<AscendC::Std::Int<0>, AscendC::Std::integral_constant<size_t, 0>>::value, "");
static_assert((AscendC::Std::Int<5>::value + AscendC::Std::Int<3>::value) == 8, "Addition failed");
static_assert((AscendC::Std::Int<4>::value * AscendC::Std::Int<6>::value) == 24, "Multiplication failed");
static_assert(AscendC::Std::Int<10>::value > AscendC::Std::Int<5>::value, "Comparison failed");
static_assert(AscendC::Std::Int<7>::value != AscendC::Std::Int<77>::value, "Equality check failed");
static_assert(AscendC::Std::integral_constant<int, 42>{} == 42, "constexpr conversion");
static_assert(AscendC::Std::integral_constant<int, 42>{}() == 42, "constexpr call");
// a trait is an integral_constant: usable where one is expected
static_assert(AscendC::Std::is_same<AscendC::Std::is_void<void>::type, AscendC::Std::true_type>::value, "");
static_assert(AscendC::Std::is_same<AscendC::Std::is_const<int>::type, AscendC::Std::false_type>::value, "");
template <typename T> constexpr int pick(AscendC::Std::true_type) { return 1; }
template <typename T> constexpr int pick(AscendC::Std::false_type) { return 2; }
static_assert(pick<int>(AscendC::Std::is_integral<int>{}) == 1 && pick<int>(AscendC::Std::is_pointer<int>{}) == 2, "");
"""

PRED_ROWS: list[tuple[str, int]] = [
    # integral_constant (value, operator(), implicit conversion, Int)
    ("IntTrue::value", 1), ("IntFalse::value", 0), ("IntTrue()()", 1), ("IntFalse()()", 0),
    ("S::true_type::value", 1), ("S::false_type::value", 0), ("S::true_type()()", 1), ("S::false_type()()", 0),
    ("int(S::integral_constant<int, -7>{})", -7), ("S::integral_constant<int64_t, 1LL << 40>{}()", 1 << 40),
    ("S::Int<0>::value", 0), ("S::Int<1>()()", 1), ("S::Int<0xFFFFFFFF>::value", 0xFFFFFFFF),
    ("S::Int<0xFFFFFFFF>()()", 0xFFFFFFFF),
    # is_same / is_same_v
    ("S::is_same<int, int>::value", 1), ("S::is_same<int, double>::value", 0),
    ("S::is_same<ClassA, ClassB>::value", 0), ("S::is_same<ClassC, ClassC_alias>::value", 1),
    ("S::is_same<TemplateClass<int>, TemplateClass<int>>::value", 1),
    ("S::is_same<TemplateClass<int>, TemplateClass<double>>::value", 0),
    ("S::is_same<int, const int>::value", 0), ("S::is_same<int, int&>::value", 0),
    ("S::is_same<int32_t, int>::value", 1), ("S::is_same_v<float, float>", 1), ("S::is_same_v<float, half>", 0),
    # is_void
    ("S::is_void<int>::value", 0), ("S::is_void<void*>::value", 0), ("S::is_void<VoidFn>::value", 0),
    ("S::is_void<MyStruct>::value", 0), ("S::is_void<void>::value", 1), ("S::is_void<const void>::value", 1),
    ("S::is_void<volatile void>::value", 1), ("S::is_void<const volatile void>::value", 1),
    # is_integral
    ("S::is_integral<bool>::value", 1), ("S::is_integral<char>::value", 1), ("S::is_integral<int>::value", 1),
    ("S::is_integral<long long>::value", 1), ("S::is_integral<unsigned int>::value", 1),
    ("S::is_integral<const int>::value", 1), ("S::is_integral<volatile long>::value", 1),
    ("S::is_integral<uint8_t>::value", 1), ("S::is_integral<int16_t>::value", 1),
    ("S::is_integral<uint64_t>::value", 1),
    ("S::is_integral<float>::value", 0), ("S::is_integral<double>::value", 0), ("S::is_integral<int*>::value", 0),
    ("S::is_integral<int&>::value", 0), ("S::is_integral<int[5]>::value", 0), ("S::is_integral<IntFn>::value", 0),
    ("S::is_integral<MyStruct>::value", 0), ("S::is_integral<void>::value", 0),
    # is_floating_point
    ("S::is_floating_point<float>::value", 1), ("S::is_floating_point<double>::value", 1),
    ("S::is_floating_point<long double>::value", 1), ("S::is_floating_point<const float>::value", 1),
    ("S::is_floating_point<volatile double>::value", 1), ("S::is_floating_point<int>::value", 0),
    ("S::is_floating_point<bool>::value", 0), ("S::is_floating_point<double*>::value", 0),
    ("S::is_floating_point<float&>::value", 0), ("S::is_floating_point<double[5]>::value", 0),
    ("S::is_floating_point<DoubleFn>::value", 0), ("S::is_floating_point<MyStruct>::value", 0),
    ("S::is_floating_point<void>::value", 0),
    # is_array
    ("S::is_array<int[5]>::value", 1), ("S::is_array<char[]>::value", 1), ("S::is_array<double[2][3]>::value", 1),
    ("S::is_array<const int[10]>::value", 1), ("S::is_array<volatile char[3]>::value", 1),
    ("S::is_array<int*>::value", 0), ("S::is_array<int>::value", 0), ("S::is_array<double>::value", 0),
    ("S::is_array<MyStruct>::value", 0), ("S::is_array<IntFn>::value", 0), ("S::is_array<void>::value", 0),
    ("S::is_array<int(&)[5]>::value", 0),
    # is_pointer
    ("S::is_pointer<int*>::value", 1), ("S::is_pointer<char**>::value", 1), ("S::is_pointer<void*>::value", 1),
    ("S::is_pointer<MyStruct*>::value", 1), ("S::is_pointer<int(*)[5]>::value", 1),
    ("S::is_pointer<void(*)(int)>::value", 1), ("S::is_pointer<const int*>::value", 1),
    ("S::is_pointer<int* const>::value", 1), ("S::is_pointer<volatile char*>::value", 1),
    ("S::is_pointer<int* const volatile>::value", 1),
    ("S::is_pointer<int>::value", 0), ("S::is_pointer<int&>::value", 0), ("S::is_pointer<int[5]>::value", 0),
    ("S::is_pointer<double>::value", 0), ("S::is_pointer<MyStruct>::value", 0), ("S::is_pointer<VoidFn>::value", 0),
    ("S::is_pointer<void>::value", 0), ("S::is_pointer<int*&>::value", 0),
    # is_reference
    ("S::is_reference<int&>::value", 1), ("S::is_reference<int&&>::value", 1),
    ("S::is_reference<int(&)[5]>::value", 1), ("S::is_reference<int*&>::value", 1),
    ("S::is_reference<MyStruct&>::value", 1), ("S::is_reference<const int&>::value", 1),
    ("S::is_reference<volatile double&&>::value", 1), ("S::is_reference<const MyStruct&>::value", 1),
    ("S::is_reference<int>::value", 0), ("S::is_reference<int*>::value", 0), ("S::is_reference<int[5]>::value", 0),
    ("S::is_reference<double>::value", 0), ("S::is_reference<MyStruct>::value", 0),
    ("S::is_reference<VoidFn>::value", 0), ("S::is_reference<void>::value", 0),
    # is_const
    ("S::is_const<int>::value", 0), ("S::is_const<const int*>::value", 0), ("S::is_const<int&>::value", 0),
    ("S::is_const<const int&>::value", 0), ("S::is_const<int&&>::value", 0), ("S::is_const<int[5]>::value", 0),
    ("S::is_const<double>::value", 0), ("S::is_const<MyStruct>::value", 0), ("S::is_const<void>::value", 0),
    ("S::is_const<volatile int>::value", 0),
    ("S::is_const<const int>::value", 1), ("S::is_const<int const>::value", 1), ("S::is_const<int* const>::value", 1),
    ("S::is_const<const int[5]>::value", 1), ("S::is_const<const volatile double>::value", 1),
    ("S::is_const<const MyStruct>::value", 1),
]


@pytest.mark.api("integral_constant", "is_same", "is_void", "is_integral", "is_floating_point", "is_array",
                 "is_pointer", "is_reference", "is_const")
def test_integral_constant_and_type_predicates(prog) -> None:
    check_rows(prog, PRED_ROWS, PRED_DECLS)


# ---- is_base_of, is_convertible, conditional, enable_if --------------------------------------------------
REL_DECLS = """
class Base {};
class Derived : public Base {};
class Unrelated {};
class Derived2 : virtual public Base {};
class VirtualDerived : virtual public Base {};
class MultiDerived : public Base, public VirtualDerived {};
class PrivateDerived : private Base {};
template <typename T> class BaseTemplate { public: T value; };
template <typename T> class DerivedTemplate : public BaseTemplate<T> {};
struct FromInt { FromInt(int) {} };
struct ExplicitFromInt { explicit ExplicitFromInt(int) {} };
struct FloatLike { operator float() const { return 1.0f; } };

// conditional: the page's selectType
struct TypeA { static int print() { return 'A'; } };
struct TypeB { static int print() { return 'B'; } };
template <bool Condition>
int selectType() {
  using SelectedType = typename AscendC::Std::conditional<Condition, TypeA, TypeB>::type;
  return SelectedType::print();
}

// enable_if: the page's Calculator, Container and add
template <typename T>
class Calculator {
 public:
  template <typename U = T>
  typename AscendC::Std::enable_if<AscendC::Std::is_integral<U>::value, U>::type multiply(U a, U b) { return a * b; }
  template <typename U = T>
  typename AscendC::Std::enable_if<!AscendC::Std::is_integral<U>::value, U>::type multiply(U a, U b) {
    return a * b + U(1000);   // tells the non-integral overload apart
  }
};
template <typename T, typename Enable = void>
class Container { public: int kind() const { return 1; } };
template <typename T>
class Container<T, typename AscendC::Std::enable_if<AscendC::Std::is_integral<T>::value>::type> {
 public:
  int kind() const { return 2; }
};
template <typename T>
typename AscendC::Std::enable_if<AscendC::Std::is_integral<T>::value, T>::type add(T a, T b) { return a + b; }
template <typename T>
typename AscendC::Std::enable_if<!AscendC::Std::is_integral<T>::value, T>::type add(T a, T b) { return a + (-b); }
static_assert(AscendC::Std::is_same<AscendC::Std::enable_if<true>::type, void>::value, "Tp defaults to void");
static_assert(AscendC::Std::is_same<AscendC::Std::enable_if_t<true, int>, int>::value, "");
// SFINAE: enable_if<false> has no member type
template <typename T, typename = void> struct has_type : AscendC::Std::false_type {};
template <typename T> struct has_type<T, decltype(void(sizeof(typename T::type)))> : AscendC::Std::true_type {};
static_assert(has_type<AscendC::Std::enable_if<true, int>>::value, "");
static_assert(!has_type<AscendC::Std::enable_if<false, int>>::value, "");
"""


def _same(a: str, b: str) -> str:
    return f"S::is_same_v<{a}, {b}>"


REL_ROWS: list[tuple[str, int]] = [
    # is_base_of (the page's cases; a class is its own base; not for non-class types)
    ("S::is_base_of<Base, Derived>::value", 1), ("S::is_base_of<Derived, Base>::value", 0),
    ("S::is_base_of<Base, Unrelated>::value", 0), ("S::is_base_of<Base, Derived2>::value", 1),
    ("S::is_base_of<BaseTemplate<int>, DerivedTemplate<int>>::value", 1),
    ("S::is_base_of<BaseTemplate<float>, DerivedTemplate<int>>::value", 0),
    ("S::is_base_of<Base, VirtualDerived>::value", 1), ("S::is_base_of<Base, MultiDerived>::value", 1),
    ("S::is_base_of<Base, PrivateDerived>::value", 1), ("S::is_base_of<Base, Base>::value", 1),
    ("S::is_base_of<int, int>::value", 0), ("S::is_base_of<Base, Derived*>::value", 0),
    # is_convertible
    ("S::is_convertible<int, double>::value", 1), ("S::is_convertible<double, int>::value", 1),
    ("S::is_convertible<Derived, Base>::value", 1), ("S::is_convertible<Base, Derived>::value", 0),
    ("S::is_convertible<Derived, Unrelated>::value", 0), ("S::is_convertible<Derived*, Base*>::value", 1),
    ("S::is_convertible<Base*, Derived*>::value", 0), ("S::is_convertible<PrivateDerived, Base>::value", 0),
    ("S::is_convertible<int, FromInt>::value", 1), ("S::is_convertible<int, ExplicitFromInt>::value", 0),
    ("S::is_convertible<FloatLike, float>::value", 1), ("S::is_convertible<int*, int>::value", 0),
    ("S::is_convertible<int[3], int*>::value", 1), ("S::is_convertible<int*, int[3]>::value", 0),
    ("S::is_convertible<int, int&>::value", 0), ("S::is_convertible<int&, const int&>::value", 1),
    ("S::is_convertible<int, const int&>::value", 1), ("S::is_convertible<void, void>::value", 1),
    ("S::is_convertible<int, void>::value", 0), ("S::is_convertible<void, int>::value", 0),
    # conditional
    ("selectType<true>()", ord("A")), ("selectType<false>()", ord("B")),
    (_same("S::conditional<true, int, float>::type", "int"), 1),
    (_same("S::conditional<false, int, float>::type", "float"), 1),
    (_same("S::conditional<(sizeof(int) > 8), int64_t, int32_t>::type", "int32_t"), 1),
    # enable_if (the page's example: overloads and a specialisation chosen by the condition)
    ("Calculator<int>().multiply(2, 3)", 6), ("Calculator<float>().multiply(2.5f, 4.0f)", 1010),
    ("Container<float>().kind()", 1), ("Container<int>().kind()", 2),
    ("add(1, 2)", 3), ("add(1.5f, 2.5f) * 100", -100),
]


@pytest.mark.api("is_base_of", "is_convertible", "conditional", "enable_if")
def test_type_relations_and_selection(prog) -> None:
    check_rows(prog, REL_ROWS, REL_DECLS)


# ---- add_* / remove_* --------------------------------------------------------------------------------
XFORM_PAIRS: list[tuple[str, str, int]] = [
    # add_const / add_const_t
    ("S::add_const<int>::type", "const int", 1), ("S::add_const<double>::type", "const double", 1),
    ("S::add_const<char>::type", "const char", 1), ("S::add_const<const int>::type", "const int", 1),
    ("S::add_const_t<int>", "const int", 1), ("S::add_const_t<const double>", "const double", 1),
    ("S::add_const_t<int>", "int", 0), ("S::add_const_t<int*>", "int* const", 1),
    ("S::add_const_t<int&>", "int&", 1),
    # add_volatile / add_volatile_t
    ("S::add_volatile<int>::type", "volatile int", 1), ("S::add_volatile<volatile char>::type", "volatile char", 1),
    ("S::add_volatile_t<double>", "volatile double", 1), ("S::add_volatile_t<volatile int>", "volatile int", 1),
    ("S::add_volatile_t<int>", "int", 0),
    # add_cv / add_cv_t
    ("S::add_cv<int>::type", "const volatile int", 1), ("S::add_cv<const double>::type", "const volatile double", 1),
    ("S::add_cv<volatile char>::type", "const volatile char", 1),
    ("S::add_cv<const volatile int>::type", "const volatile int", 1),
    ("S::add_cv_t<volatile double>", "const volatile double", 1), ("S::add_cv_t<int>", "const int", 0),
    # add_pointer
    ("S::add_pointer<int>::type", "int*", 1), ("S::add_pointer<float>::type", "float*", 1),
    ("S::add_pointer<void>::type", "void*", 1), ("S::add_pointer<const void>::type", "const void*", 1),
    ("S::add_pointer<int&>::type", "int*", 1), ("S::add_pointer<const int&>::type", "const int*", 1),
    ("S::add_pointer<FuncType>::type", "FuncType*", 1), ("S::add_pointer<ArrayType>::type", "ArrayType*", 1),
    ("S::add_pointer<int*>::type", "int**", 1), ("S::add_pointer<int>::type", "int", 0),
    # add_lvalue_reference_t
    ("S::add_lvalue_reference_t<int>", "int&", 1), ("S::add_lvalue_reference_t<float>", "float&", 1),
    ("S::add_lvalue_reference_t<int*>", "int*&", 1), ("S::add_lvalue_reference_t<const int*>", "const int*&", 1),
    ("S::add_lvalue_reference_t<int&>", "int&", 1), ("S::add_lvalue_reference_t<int&&>", "int&", 1),
    ("S::add_lvalue_reference_t<const int&>", "const int&", 1), ("S::add_lvalue_reference_t<void>", "void", 1),
    ("S::add_lvalue_reference_t<const void>", "const void", 1),
    ("S::add_lvalue_reference_t<FuncType>", "FuncType&", 1),
    ("S::add_lvalue_reference_t<ArrayType>", "ArrayType&", 1),
    ("S::add_lvalue_reference_t<MyClass>", "MyClass&", 1),
    ("S::add_lvalue_reference_t<const MyClass>", "const MyClass&", 1),
    ("S::add_lvalue_reference<int>::type", "int&", 1), ("S::add_lvalue_reference_t<int>", "int&&", 0),
    # add_rvalue_reference_t
    ("S::add_rvalue_reference_t<int>", "int&&", 1), ("S::add_rvalue_reference_t<float>", "float&&", 1),
    ("S::add_rvalue_reference_t<int*>", "int*&&", 1), ("S::add_rvalue_reference_t<const int*>", "const int*&&", 1),
    ("S::add_rvalue_reference_t<int&>", "int&", 1), ("S::add_rvalue_reference_t<int&&>", "int&&", 1),
    ("S::add_rvalue_reference_t<const int&>", "const int&", 1), ("S::add_rvalue_reference_t<void>", "void", 1),
    ("S::add_rvalue_reference_t<const void>", "const void", 1),
    ("S::add_rvalue_reference_t<FuncType>", "FuncType&&", 1),
    ("S::add_rvalue_reference_t<ArrayType>", "ArrayType&&", 1),
    ("S::add_rvalue_reference_t<MyClass>", "MyClass&&", 1),
    ("S::add_rvalue_reference_t<const MyClass>", "const MyClass&&", 1),
    ("S::add_rvalue_reference<int>::type", "int&&", 1), ("S::add_rvalue_reference_t<int>", "int&", 0),
    # remove_const / remove_const_t
    ("S::remove_const<int>::type", "int", 1), ("S::remove_const<char>::type", "char", 1),
    ("S::remove_const<const int>::type", "int", 1), ("S::remove_const<const double>::type", "double", 1),
    ("S::remove_const_t<const int>", "int", 1), ("S::remove_const_t<double>", "double", 1),
    ("S::remove_const_t<const volatile int>", "volatile int", 1), ("S::remove_const_t<const int*>", "const int*", 1),
    ("S::remove_const_t<const int&>", "const int&", 1), ("S::remove_const_t<const int>", "const int", 0),
    # remove_volatile / remove_volatile_t
    ("S::remove_volatile<int>::type", "int", 1), ("S::remove_volatile<volatile int>::type", "int", 1),
    ("S::remove_volatile<volatile char>::type", "char", 1), ("S::remove_volatile_t<volatile double>", "double", 1),
    ("S::remove_volatile_t<const volatile int>", "const int", 1),
    ("S::remove_volatile_t<volatile int>", "volatile int", 0),
    # remove_cv / remove_cv_t
    ("S::remove_cv<int>::type", "int", 1), ("S::remove_cv<const double>::type", "double", 1),
    ("S::remove_cv<volatile char>::type", "char", 1), ("S::remove_cv<const volatile int>::type", "int", 1),
    ("S::remove_cv_t<const volatile double>", "double", 1), ("S::remove_cv_t<const int*>", "const int*", 1),
    ("S::remove_cv_t<int* const volatile>", "int*", 1), ("S::remove_cv_t<const int>", "const int", 0),
    # remove_reference / remove_reference_t
    ("S::remove_reference<int>::type", "int", 1), ("S::remove_reference<int&>::type", "int", 1),
    ("S::remove_reference<double&&>::type", "double", 1), ("S::remove_reference<char&>::type", "char", 1),
    ("S::remove_reference_t<int&&>", "int", 1), ("S::remove_reference_t<const int&>", "const int", 1),
    ("S::remove_reference_t<int*&>", "int*", 1), ("S::remove_reference_t<int&>", "int&", 0),
    # remove_pointer / remove_pointer_t
    ("S::remove_pointer<int>::type", "int", 1), ("S::remove_pointer<double*>::type", "double", 1),
    ("S::remove_pointer<char* const>::type", "char", 1), ("S::remove_pointer<int* volatile>::type", "int", 1),
    ("S::remove_pointer<double* const volatile>::type", "double", 1),
    ("S::remove_pointer_t<int**>", "int*", 1), ("S::remove_pointer_t<const int*>", "const int", 1),
    ("S::remove_pointer_t<int* const>", "int", 1), ("S::remove_pointer_t<int*>", "int*", 0),
    ("S::remove_pointer_t<int&>", "int&", 1),
]

XFORM_DECLS = """
using FuncType = void();
using ArrayType = int[];
class MyClass {};
"""


@pytest.mark.api("add_const", "add_volatile", "add_cv", "add_pointer", "add_lvalue_reference",
                 "add_rvalue_reference", "remove_const", "remove_volatile", "remove_cv", "remove_reference",
                 "remove_pointer")
def test_type_transformations(prog) -> None:
    rows = [(_same(a, b), want) for a, b, want in XFORM_PAIRS]
    check_rows(prog, rows, XFORM_DECLS)


# ---- tuple, get, make_tuple -----------------------------------------------------------------------------
TUPLE_DECLS = """
#include <utility>
using U32x64 = AscendC::Std::tuple<
  uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
  uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
  uint32_t, uint32_t, uint32_t, uint8_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
  uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
  uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
  uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t,
  uint32_t, uint32_t, uint32_t, uint32_t>;
namespace T = AscendC::Std;
using T3 = T::tuple<uint32_t, float, bool>;
// get's documented return types
static_assert(T::is_same_v<decltype(T::get<0>(std::declval<T3&>())), uint32_t&>, "");
static_assert(T::is_same_v<decltype(T::get<1>(std::declval<const T3&>())), const float&>, "");
static_assert(T::is_same_v<decltype(T::get<2>(std::declval<T3&&>())), bool&&>, "");
static_assert(T::is_same_v<decltype(T::get<0>(std::declval<const T3&&>())), const uint32_t&&>, "");
static_assert(noexcept(T::get<0>(std::declval<T3&>())), "get is noexcept");
// tuple_size / tuple_element (the tuple page's helpers)
static_assert(T::tuple_size<T3>::value == 3 && T::tuple_size<const T3>::value == 3, "");
static_assert(T::tuple_size<U32x64>::value == 64 && T::tuple_size<T::tuple<>>::value == 0, "");
static_assert(T::is_same_v<T::tuple_element<1, T3>::type, float>, "");
static_assert(T::is_same_v<T::tuple_element<0, const T3>::type, const uint32_t>, "");
static_assert(T::is_same_v<T::tuple_element<23, U32x64>::type, uint8_t>, "");
// make_tuple: element types decayed from the arguments; tie: references
static_assert(T::is_same_v<decltype(T::make_tuple(1, 2.0, true)), T::tuple<int, double, bool>>, "");
static_assert(T::is_same_v<decltype(T::make_tuple()), T::tuple<>>, "");
inline const int kConstInt = 5;
static_assert(T::is_same_v<decltype(T::make_tuple(kConstInt, (int8_t)1, (half)1.0)), T::tuple<int, int8_t, half>>, "");
static_assert(T::is_same_v<decltype(T::tie(std::declval<int&>(), std::declval<float&>())), T::tuple<int&, float&>>,
              "");
inline int64_t milli(float v) { return static_cast<int64_t>(v * 1000.0f + (v < 0 ? -0.5f : 0.5f)); }
"""

TUPLE_PROLOGUE = """
  // initialiser-list construction, get, and get's reference used to modify an element
  T3 test{11, 2.2, true};
  const uint32_t first0 = T::get<0>(test);
  T::get<0>(test) += 5;
  T::get<1>(test) += (float)1.0;
  T::get<2>(test) = false;
  // copy construction, then the source changes: the copy keeps its values
  T3 copy = test;
  T::get<0>(test) = 1000;
  // make_tuple into a tuple of other element types, assignment operators
  T3 made = T::make_tuple(22, 3.3, true);
  T3 assigned;
  assigned = made;
  T::get<0>(made) = 0;
  T::tuple<int64_t, double, int> converted;
  converted = T::make_tuple(-4, 0.5f, (int8_t)-7);
  // const tuples and const elements
  const T3 test4{11, 2.2, true};
  T::tuple_element<0, decltype(test4)>::type e0 = 77;
  T::tuple_element<1, decltype(test4)>::type e1 = 7.7;
  uint32_t cu = 0; float cf = 0.0; bool cb = false;
  T::tie(cu, cf, cb) = test4;
  T::tuple<const uint32_t, const float, const bool> test5{33, 4.4, true};
  const T::tuple<const uint32_t, const float, const bool> test6{34, 4.5, false};
  // rvalue get
  const uint32_t moved = T::get<0>(T::make_tuple(7u, 1.0f));
  T3 rv{9u, 1.25f, true};
  float rvf = T::get<1>(std::move(rv));
  // 64 elements: default construction, then assignment from make_tuple's 64 ints
  U32x64 test7;
  auto test8 = T::make_tuple(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                             25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46,
                             47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 300);
  test7 = test8;
  // a tuple of references (tie) writes through
  int ra = 1; float rb = 2.0f;
  auto refs = T::tie(ra, rb);
  T::get<0>(refs) = 41;
  T::get<1>(refs) *= 3.0f;
  // the documented data types in one tuple (the A2 list without int4b_t)
  T::tuple<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t, int64_t, half, float, bfloat16_t, bool>
      test1 = {1, 2, 3, 4, 5, 6, 7, 8, 9.5, 10.25, 11.5, true};
  T::get<0>(test1) += 1; T::get<7>(test1) += 1; T::get<10>(test1) += 1.0f;
  auto test2 = T::make_tuple(int8_t(-2), uint16_t(65535), int64_t(-(1LL << 40)), half(0.5), bfloat16_t(-3.0f));
  // the page's slicing: a longer tuple initialises a shorter one through its base (the trailing elements)
  T::tuple<int, int> sliced = T::make_tuple(1, 2, 3);
"""

TUPLE_ROWS: list[tuple[str, int]] = [
    ("first0", 11), ("T::get<0>(test)", 1000), ("milli(T::get<1>(test))", 3200), ("T::get<2>(test)", 0),
    ("T::get<0>(copy)", 16), ("milli(T::get<1>(copy))", 3200), ("T::get<2>(copy)", 0),
    ("T::get<0>(made)", 0), ("milli(T::get<1>(made))", 3300), ("T::get<2>(made)", 1),
    ("T::get<0>(assigned)", 22), ("milli(T::get<1>(assigned))", 3300), ("T::get<2>(assigned)", 1),
    ("T::get<0>(converted)", -4), ("milli((float)T::get<1>(converted))", 500), ("T::get<2>(converted)", -7),
    ("T::get<0>(test4)", 11), ("milli(T::get<1>(test4))", 2200), ("T::get<2>(test4)", 1),
    ("e0", 77), ("milli(e1)", 7700), ("cu", 11), ("milli(cf)", 2200), ("cb", 1),
    ("T::get<0>(test5)", 33), ("milli(T::get<1>(test5))", 4400), ("T::get<2>(test5)", 1),
    ("T::get<0>(test6)", 34), ("milli(T::get<1>(test6))", 4500), ("T::get<2>(test6)", 0),
    ("moved", 7), ("milli(rvf)", 1250),
    ("T::tuple_size<decltype(test7)>::value", 64), ("T::tuple_size<decltype(test8)>::value", 64),
    ("T::get<0>(test7)", 1), ("T::get<22>(test7)", 23), ("T::get<23>(test7)", 24), ("T::get<62>(test7)", 63),
    ("T::get<63>(test7)", 300),
    ("ra", 41), ("milli(rb)", 6000), ("T::tuple_size<decltype(refs)>::value", 2),
    ("T::tuple_size<decltype(test1)>::value", 12), ("T::get<0>(test1)", 2), ("T::get<1>(test1)", 2),
    ("T::get<2>(test1)", 3), ("T::get<3>(test1)", 4), ("T::get<4>(test1)", 5), ("T::get<5>(test1)", 6),
    ("T::get<6>(test1)", 7), ("T::get<7>(test1)", 9), ("milli((float)T::get<8>(test1))", 9500),
    ("milli(T::get<9>(test1))", 10250), ("milli((float)T::get<10>(test1))", 12500), ("T::get<11>(test1)", 1),
    ("T::get<0>(test2)", -2), ("T::get<1>(test2)", 65535), ("T::get<2>(test2)", -(1 << 40)),
    ("milli((float)T::get<3>(test2))", 500), ("milli((float)T::get<4>(test2))", -3000),
    ("T::get<0>(sliced)", 2), ("T::get<1>(sliced)", 3),
]

# The tuple page's use: tensors aggregated in tuples drive a copy-in / compute / copy-out kernel.
TENSOR_KERNEL = """
static uint8_t *g_in, *g_out;
static void tensor_body(void*) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> qin;
  TQue<TPosition::VECOUT, 1> qout;
  pipe.InitBuffer(qin, 1, 64 * sizeof(float));
  pipe.InitBuffer(qout, 1, 64 * sizeof(float));
  GlobalTensor<float> xGm, zGm;
  xGm.SetGlobalBuffer((__gm__ float*)g_in, 64);
  zGm.SetGlobalBuffer((__gm__ float*)g_out, 64);
  auto gms = AscendC::Std::make_tuple(xGm, zGm);
  LocalTensor<float> x = qin.AllocTensor<float>();
  DataCopy(x, AscendC::Std::get<0>(gms), 64);
  qin.EnQue(x);
  LocalTensor<float> xin = qin.DeQue<float>();
  LocalTensor<float> zout = qout.AllocTensor<float>();
  AscendC::Std::tuple<LocalTensor<float>, LocalTensor<float>, GlobalTensor<float>> work{xin, zout,
                                                                                         AscendC::Std::get<1>(gms)};
  AscendC::Std::tuple<LocalTensor<float>, LocalTensor<float>, GlobalTensor<float>> same = work;
  Adds(AscendC::Std::get<1>(same), AscendC::Std::get<0>(same), 1.5f, 64);
  qout.EnQue(AscendC::Std::get<1>(same));
  qin.FreeTensor(AscendC::Std::get<0>(work));
  LocalTensor<float> z = qout.DeQue<float>();
  DataCopy(AscendC::Std::get<2>(work), z, 64);
  qout.FreeTensor(z);
}
"""


@pytest.mark.api("tuple", "get", "make_tuple")
def test_tuple_get_make_tuple(prog) -> None:
    check_rows(prog, TUPLE_ROWS, TUPLE_DECLS, TUPLE_PROLOGUE)


@pytest.mark.api("tuple", "get", "make_tuple")
def test_tuple_of_tensors_in_a_kernel(prog) -> None:
    x = np.arange(64, dtype=np.float32) * 0.25 - 3.0
    prog.inputs(x)
    src = TENSOR_KERNEL + """
void run_test() {
  g_in = npukb_test::gm_input(0);
  g_out = npukb_test::gm_output(0, 64 * sizeof(float));
  npukb_test::run_blocks(1, tensor_body, nullptr);
}
"""
    ran = prog.run(src)
    assert ran.returncode == 0, ran.stderr
    np.testing.assert_array_equal(prog.output(0, np.float32), x + np.float32(1.5))


# ---- integer_sequence, max, min -------------------------------------------------------------------------
SEQ_DECLS = """
namespace Q = AscendC::Std;
template <size_t... Is>
int64_t Digits(Q::index_sequence<Is...>) {        // the values in order, one decimal digit each (< 10)
  int64_t v = 0;
  ((v = v * 10 + static_cast<int64_t>(Is)), ...);
  return v;
}
template <size_t... Is>
int64_t Count(Q::index_sequence<Is...>) { return sizeof...(Is); }
template <size_t... Is>
int64_t Sum(Q::index_sequence<Is...>) { return (int64_t(0) + ... + static_cast<int64_t>(Is)); }
template <size_t... Is>
int64_t Last(Q::index_sequence<Is...>) { int64_t v = -1; ((v = static_cast<int64_t>(Is)), ...); return v; }
// expanding a tuple through an index sequence
template <typename Tup, size_t... Is>
int64_t TupleSum(const Tup& t, Q::index_sequence<Is...>) { return (int64_t(0) + ... + Q::get<Is>(t)); }
static_assert(Q::is_same_v<Q::make_index_sequence<3>, Q::index_sequence<0, 1, 2>>, "");
static_assert(Q::is_same_v<Q::make_index_sequence<0>, Q::index_sequence<>>, "");
static_assert(Q::is_same_v<Q::index_sequence<4, 2>, Q::IntegerSequence<size_t, 4, 2>>, "");
static_assert(Q::is_same_v<Q::MakeIntegerSequence<int, 2>, Q::IntegerSequence<int, 0, 1>>, "");
static_assert(!Q::is_same_v<Q::make_index_sequence<3>, Q::index_sequence<0, 1, 3>>, "");
"""

SEQ_ROWS: list[tuple[str, int]] = [
    # integer_sequence: the page's two sequences, sizes 0 and 64
    ("Digits(S::make_index_sequence<5>{})", 1234), ("Count(S::make_index_sequence<5>{})", 5),
    ("Count(S::index_sequence<0, 1, 2, 10, 8000>{})", 5), ("Sum(S::index_sequence<0, 1, 2, 10, 8000>{})", 8013),
    ("Last(S::index_sequence<0, 1, 2, 10, 8000>{})", 8000), ("Count(S::make_index_sequence<0>{})", 0),
    ("Count(S::make_index_sequence<64>{})", 64), ("Sum(S::make_index_sequence<64>{})", 2016),
    ("Last(S::make_index_sequence<64>{})", 63), ("Digits(S::make_index_sequence<1>{})", 0),
    ("TupleSum(S::make_tuple(5, 7, 11, 13), S::make_index_sequence<4>{})", 36),
    # max / min over the documented types, mixed signs, equal operands
    ("S::max((int64_t)1, (int64_t)2)", 2), ("S::min((int64_t)1, (int64_t)2)", 1),
    ("S::max((int64_t)-5, (int64_t)-9)", -5), ("S::min((int64_t)-5, (int64_t)-9)", -9),
    ("S::max((int64_t)(1LL << 62), (int64_t)-1)", 1 << 62), ("S::min((int64_t)(1LL << 62), (int64_t)-1)", -1),
    ("S::max((uint64_t)~0ULL, (uint64_t)1) == ~0ULL", 1), ("S::min((uint64_t)~0ULL, (uint64_t)1)", 1),
    ("S::max((int32_t)-2147483647 - 1, (int32_t)0)", 0), ("S::min((int32_t)-2147483647 - 1, (int32_t)0)", -2**31),
    ("S::max((uint32_t)4000000000u, (uint32_t)7)", 4000000000), ("S::min((uint32_t)4000000000u, (uint32_t)7)", 7),
    ("S::max((int16_t)-300, (int16_t)200)", 200), ("S::min((int16_t)-300, (int16_t)200)", -300),
    ("S::max((uint16_t)65535, (uint16_t)0)", 65535), ("S::min((uint16_t)65535, (uint16_t)0)", 0),
    ("S::max((int8_t)-128, (int8_t)127)", 127), ("S::min((int8_t)-128, (int8_t)127)", -128),
    ("S::max((uint8_t)200, (uint8_t)100)", 200), ("S::min((uint8_t)200, (uint8_t)100)", 100),
    ("S::max(true, false)", 1), ("S::min(true, false)", 0), ("S::max(false, false)", 0),
    ("S::max(2.5f, -3.5f) * 10", 25), ("S::min(2.5f, -3.5f) * 10", -35), ("S::max(-0.25f, -0.5f) * 100", -25),
    ("S::max(7, 7)", 7), ("S::min(-7, -7)", -7),
    ("S::is_same_v<decltype(S::max((int16_t)1, (int16_t)2)), int16_t>", 1),
    ("S::is_same_v<decltype(S::min(1.0f, 2.0f)), float>", 1),
]


@pytest.mark.api("integer_sequence", "max", "min")
def test_integer_sequence_max_min(prog) -> None:
    check_rows(prog, SEQ_ROWS, SEQ_DECLS)


# ---- documented compile-time limits ---------------------------------------------------------------------
def _types(n: int, t: str = "int") -> str:
    return ", ".join([t] * n)


NEGATIVE = {
    # max / min: U is reserved and must be T; the supported data types
    "max_mixed_types": "uint32_t x = 3; (void)AscendC::Std::max(x, 5);",
    "min_mixed_types": "(void)AscendC::Std::min(1.0f, (half)2.0f);",
    "max_int32_int64": "(void)AscendC::Std::max((int32_t)1, (int64_t)2);",
    "max_double": "(void)AscendC::Std::max(1.0, 2.0);",
    "min_half": "(void)AscendC::Std::min((half)1.0f, (half)2.0f);",
    # get: a constant index in [0, size)
    "get_out_of_range": "AscendC::Std::tuple<int, int, int> t{1, 2, 3}; (void)AscendC::Std::get<3>(t);",
    "get_runtime_index": "AscendC::Std::tuple<int, int> t{1, 2}; int i = 1; (void)AscendC::Std::get<i>(t);",
    # tuple / make_tuple: at most 64 elements, no arrays
    "tuple_65_elements": f"AscendC::Std::tuple<{_types(65, 'float')}> t;",   # a type of its own (one error a type)
    "make_tuple_65": "auto t = AscendC::Std::make_tuple(" + ", ".join(["1"] * 65) + ");",
    "tuple_of_array": "int a[3] = {1, 2, 3}; AscendC::Std::tuple<int[3]> t{a};",
    # integer_sequence: N in [0, 64], at most 64 values
    "make_index_sequence_65": "AscendC::Std::make_index_sequence<65> s{}; (void)s;",
    "index_sequence_65": "AscendC::Std::index_sequence<" + ", ".join(map(str, range(65))) + "> s{}; (void)s;",
    # integral_constant: no floating-point Tp; enable_if<false> has no type
    "integral_constant_float": "(void)AscendC::Std::integral_constant<float, 1.0f>::value;",
    "enable_if_false": "AscendC::Std::enable_if<false, int>::type v = 0; (void)v;",
    # abs and sqrt are documented for the Ascend 950 only (not Atlas A2 / A3)
    "abs_not_on_a2": "(void)AscendC::Std::abs((int32_t)-2);",
    "sqrt_not_on_a2": "(void)AscendC::Std::sqrt((int64_t)4);",
    # the family lives in AscendC::Std only
    "no_global_tuple": "::tuple<int> t;",
    "no_global_is_same": "(void)::is_same<int, int>::value;",
}

# the same uses within the documented limits compile (the errors above come from the limits)
POSITIVE = [
    "uint32_t x = 3; (void)AscendC::Std::max(x, 5u);",
    "(void)AscendC::Std::min(1.0f, 2.0f);",
    "AscendC::Std::tuple<int, int, int> t{1, 2, 3}; (void)AscendC::Std::get<2>(t);",
    "AscendC::Std::tuple<int, int> t{1, 2}; constexpr int i = 1; (void)AscendC::Std::get<i>(t);",
    f"AscendC::Std::tuple<{_types(64)}> t;",
    "auto t = AscendC::Std::make_tuple(" + ", ".join(["1"] * 64) + ");",
    "AscendC::Std::make_index_sequence<64> s{}; (void)s;",
    "AscendC::Std::index_sequence<" + ", ".join(map(str, range(64))) + "> s{}; (void)s;",
    "(void)AscendC::Std::integral_constant<int, 1>::value;",
    "AscendC::Std::enable_if<true, int>::type v = 0; (void)v;",
]


@pytest.mark.api("max", "min", "get", "tuple", "make_tuple", "integer_sequence", "integral_constant", "enable_if")
def test_documented_limits_do_not_compile(tmp_path) -> None:
    lines = ['#include "kernel_operator.h"']
    where: dict[str, int] = {}
    for k, (name, code) in enumerate(sorted(NEGATIVE.items())):
        lines.append(f"void neg_{k}() {{ {code} }}")
        where[name] = len(lines)
    bad = syntax_check("\n".join(lines) + "\n", tmp_path / "neg")
    assert not bad.ok
    hit_lines = {int(m) for m in re.findall(r"snippet\.cpp:(\d+):", bad.stderr)}
    silent = [name for name, line in where.items() if line not in hit_lines]
    assert not silent, f"these documented limits compiled: {silent}\n{bad.stderr[-4000:]}"
    for message in ("AscendC::Std::max: src0 and src1 must have the same data type",
                    "AscendC::Std::min: src0 and src1 must have the same data type",
                    "AscendC::Std::max: supported data types", "AscendC::Std::min: supported data types",
                    "AscendC::Std::get / tuple_element: the index is out of the tuple's range",
                    "AscendC::Std::tuple holds at most 64 elements",
                    "AscendC::Std::tuple: array element types are not supported",
                    "N must be in [0, 64]", "holds at most 64 values"):
        assert message in bad.stderr, message

    good = ['#include "kernel_operator.h"'] + [f"void pos_{k}() {{ {code} }}" for k, code in enumerate(POSITIVE)]
    ok = syntax_check("\n".join(good) + "\n", tmp_path / "pos")
    assert ok.ok, ok.stderr[-4000:]
