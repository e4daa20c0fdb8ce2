"""diagnostics.classify, rule by rule: one real g++/clang error message for each pattern of the
taxonomy table (wording as the compilers print it), so that deleting or breaking a rule changes the
class of at least one message. Rules that no message needs are redundant with an earlier or later
rule of the same class; benchmarks/mutation_score.py lists them as equivalent mutants."""

from __future__ import annotations

import pytest

from npukernelbench.diagnostics import Diagnostic, classify, classify_diagnostic, parse
from npukernelbench.result import ErrorCategory

MESSAGES: list[tuple[str, str]] = [
    ('#error "unsupported dtype"', 'macro_preprocessing'),
    ('kernel_operator_intf_v2.h: No such file or directory', 'macro_preprocessing'),
    ("'kernel_operator_intf_v2.h' file not found", 'macro_preprocessing'),
    ('macro "GET_TILING_DATA" requires 2 arguments, but only 1 given', 'macro_preprocessing'),
    ('macro "MAX" passed 3 arguments, but takes just 2', 'macro_preprocessing'),
    ('unterminated argument list invoking macro "CHECK"', 'macro_preprocessing'),
    ('#include expects "FILENAME" or <FILENAME>', 'macro_preprocessing'),
    ('#include nested depth 200 exceeds maximum of 200 (use -fmax-include-depth=DEPTH to increase '
     'the maximum)', 'macro_preprocessing'),
    ('invalid preprocessing directive #inclde', 'macro_preprocessing'),
    ('#else without #if', 'macro_preprocessing'),
    ('unterminated #ifndef', 'macro_preprocessing'),
    ('missing binary operator before token "("', 'macro_preprocessing'),
    ('macro names must be identifiers', 'macro_preprocessing'),
    ('pasting "x" and "+" does not give a valid preprocessing token', 'macro_preprocessing'),
    ("'#' is not followed by a macro parameter", 'macro_preprocessing'),
    ('__VA_ARGS__ can only appear in the expansion of a C++11 variadic macro', 'macro_preprocessing'),
    ("'DTYPE_X' was not declared in this scope", 'macro_preprocessing'),
    ("'GM_ADDR' has not been declared", 'macro_preprocessing'),
    ("'DTYPE_Y' does not name a type", 'macro_preprocessing'),
    ("use of undeclared identifier 'GET_TILING_DATA'", 'macro_preprocessing'),
    ("unknown type name 'DTYPE_Z'", 'macro_preprocessing'),
    ("deduced conflicting types ('half' vs 'float')", 'dtype_conversion'),
    ("conflicting types for parameter 'T' ('float' and 'half')", 'dtype_conversion'),
    ("cannot convert 'AscendC::LocalTensor<float>' to 'AscendC::LocalTensor<half>&'", 'dtype_conversion'),
    ("invalid conversion from 'const float*' to 'float*' [-fpermissive]", 'dtype_conversion'),
    ("narrowing conversion of 'n' from 'int64_t' {aka 'long int'} to 'uint32_t' {aka 'unsigned int'} "
     "[-Wnarrowing]", 'dtype_conversion'),
    ("could not convert 'x' from 'float' to 'AscendC::LocalTensor<float>'", 'dtype_conversion'),
    ("invalid static_cast from type 'AscendC::LocalTensor<float>' to type 'float'", 'dtype_conversion'),
    ("invalid 'reinterpret_cast' of an rvalue expression of type 'float'", 'dtype_conversion'),
    ("conversion from 'AscendC::LocalTensor<float>' to non-scalar type 'AscendC::LocalTensor<half>' "
     "requested", 'dtype_conversion'),
    ("ambiguous conversion for functional-style cast from 'int' to 'bfloat16_t'", 'dtype_conversion'),
    ("incompatible pointer types assigning to 'float *' from 'half *'", 'dtype_conversion'),
    ("invalid operands of types 'float*' and 'float*' to binary 'operator+'", 'dtype_conversion'),
    ("invalid operands to binary expression ('LocalTensor<float>' and 'int')", 'dtype_conversion'),
    ("cannot initialize a variable of type 'float *' with an rvalue of type 'half *'", 'dtype_conversion'),
    ("static assertion failed: Adds: the scalar type must equal the tensor's element type", 'dtype_conversion'),
    ('static assertion failed: Exp supports half and float precision only', 'dtype_conversion'),
    ('static assertion failed: Div needs floating point operands', 'dtype_conversion'),
    ('static_assert failed due to requirement \'std::is_same<float, half>::value\' "dtype '
     'mismatch"', 'dtype_conversion'),
    ("assigning to 'float' from incompatible type 'LocalTensor<float>'", 'dtype_conversion'),
    ("'float' is not a valid type for a template non-type parameter", 'dtype_conversion'),
    ("'VECTOR' is not a member of 'AscendC::QuePosition'", 'scope_lifetime'),
    ('static assertion failed: InitBuffer: UB capacity exceeded', 'memory_object'),
    ('static assertion failed: DataCopy length must be 32-byte aligned', 'memory_object'),
    ("'class AscendC::GlobalTensor<half>' has no member named 'GetLength'", 'memory_object'),
    ("member reference base type 'AscendC::TBuf<>' has no member named 'AllocTensor'", 'memory_object'),
    ("request for member 'GetValue' in 'n', which is of non-class type 'uint32_t' {aka 'unsigned "
     "int'}", 'memory_object'),
    ("'x' is of non-class type 'float'", 'memory_object'),
    ("invalid use of non-static data member 'KernelAdd::blockLength'", 'memory_object'),
    ("cannot bind non-const lvalue reference of type 'AscendC::LocalTensor<float>&' to an rvalue of "
     "type 'AscendC::LocalTensor<float>'", 'memory_object'),
    ('lvalue required as left operand of assignment', 'memory_object'),
    ("assignment of read-only variable 'n'", 'memory_object'),
    ("passing 'const AscendC::TPipe' as 'this' argument discards qualifiers [-fpermissive]", 'memory_object'),
    ("invalid use of incomplete type 'class TilingData'", 'memory_object'),
    ("cannot declare field 'k' to be of abstract type 'Base'", 'memory_object'),
    ("use of deleted function 'AscendC::TPipe::TPipe(const AscendC::TPipe&)'", 'memory_object'),
    ("call to deleted constructor of 'AscendC::TPipe'", 'memory_object'),
    ('taking address of rvalue [-fpermissive]', 'memory_object'),
    ("invalid types 'float[int]' for array subscript", 'memory_object'),
    ('subscripted value is not an array, pointer, or vector', 'memory_object'),
    ("base operand of '->' has non-pointer type 'AscendC::TPipe'", 'memory_object'),
    ("member reference type 'AscendC::TPipe' is not a pointer; did you mean to use '.'?", 'memory_object'),
    ("invalid type argument of unary '*' (have 'float')", 'memory_object'),
    ("'n' cannot be used as a function", 'memory_object'),
    ("called object type 'uint32_t' (aka 'unsigned int') is not a function or function pointer", 'memory_object'),
    ("cannot call member function 'void KernelAdd::Process()' without object", 'memory_object'),
    ('void value not ignored as it ought to be', 'memory_object'),
    ('invalid use of void expression', 'memory_object'),
    ("uninitialized const 'n' [-fpermissive]", 'memory_object'),
    ("cannot allocate an object of abstract type 'Base'", 'memory_object'),
    ("cannot declare variable 'b' to be of abstract type 'Base'", 'memory_object'),
    ("invalid use of member 'KernelAdd::n' in static member function", 'memory_object'),
    ("'q' is not a pointer", 'memory_object'),
    ('array size is negative', 'memory_object'),
    ("size of array 'buf' is not an integral constant-expression", 'memory_object'),
    ("size '18446744073709551615' of array exceeds maximum object size '9223372036854775807'", 'memory_object'),
    ("invalid application of 'sizeof' to incomplete type 'TilingData'", 'memory_object'),
    ("cannot increment value of type 'AscendC::LocalTensor<float>'", 'memory_object'),
    ("cannot decrement value of type 'AscendC::LocalTensor<float>'", 'memory_object'),
    ("non-const lvalue reference to type 'LocalTensor<...>' cannot bind to a temporary of type "
     "'LocalTensor<...>'", 'memory_object'),
    ("implicitly-deleted copy constructor of 'KernelAdd'", 'memory_object'),
    ("object of type 'KernelAdd' cannot be assigned because its copy assignment operator is "
     "implicitly deleted", 'memory_object'),
    ("no matching function for call to 'Add(AscendC::LocalTensor<float>&, "
     "AscendC::LocalTensor<float>&)'", 'api_signature'),
    ("no matching member function for call to 'AllocTensor'", 'api_signature'),
    ("no matching constructor for initialization of 'AscendC::DataCopyParams'", 'api_signature'),
    ("no matching conversion for functional-style cast from 'int' to 'AscendC::LocalTensor<float>'", 'api_signature'),
    ("too many arguments to function 'void AscendC::PipeBarrier()'", 'api_signature'),
    ("too few arguments to function 'void AscendC::WholeReduceSum(...)'", 'api_signature'),
    ("no match for 'operator+' (operand types are 'AscendC::LocalTensor<float>' and "
     "'AscendC::LocalTensor<float>')", 'api_signature'),
    ("'struct TilingData' has no member named 'tileNum'", 'memory_object'),
    ("'tileNum' has no member named 'x'", 'api_signature'),
    ("no member named 'ReduceMean' in namespace 'AscendC'", 'api_signature'),
    ('wrong number of template arguments (1, should be 2)', 'api_signature'),
    ('template argument 1 is invalid', 'api_signature'),
    ("call of overloaded 'Max(float&, int)' is ambiguous", 'api_signature'),
    ("call to 'Max' is ambiguous", 'api_signature'),
    ("reference to 'Add' is ambiguous", 'api_signature'),
    ("no type named 'type' in 'struct std::enable_if<false, void>'", 'api_signature'),
    ("'DataCopy' is not a template", 'api_signature'),
    ("no template named 'TQueue' in namespace 'AscendC'", 'api_signature'),
    ('candidate expects 4 arguments, 3 provided', 'api_signature'),
    ("undefined reference to `AscendC::Softmax(float*)'", 'api_signature'),
    ('undefined symbol: AscendC::Softmax', 'api_signature'),
    ('static assertion failed: Duplicate: use the vector overload', 'api_signature'),
    ("no viable overloaded '='", 'api_signature'),
    ('expected 3 arguments, have 2', 'api_signature'),
    ('function-like macro requires 2 arguments', 'api_signature'),
    ("'Tiling' is not a namespace or unscoped enum", 'api_signature'),
    ("'KernelAdd' is not a class, namespace, or enumeration", 'api_signature'),
    ("type 'AscendC::LocalTensor<float>' does not provide a call operator", 'api_signature'),
    ("explicit specialization in non-namespace scope 'class KernelAdd'", 'api_signature'),
    ("'tileLength' was not declared in this scope", 'scope_lifetime'),
    ("'DataCopyPad2' has not been declared", 'scope_lifetime'),
    ("'xLocal' not declared", 'scope_lifetime'),
    ("'float16' does not name a type", 'scope_lifetime'),
    ("use of undeclared identifier 'FLT_MAX'", 'scope_lifetime'),
    ("undeclared identifier 'M_PI'", 'scope_lifetime'),
    ("unknown type name 'bool_t'", 'scope_lifetime'),
    ("'tmp' undeclared (first use in this function)", 'scope_lifetime'),
    ("'AscendC::TPipe KernelAdd::pipe' is private within this context", 'scope_lifetime'),
    ("'pipe' is a private member of 'KernelAdd'", 'scope_lifetime'),
    ("redeclaration of 'AscendC::LocalTensor<float> x'", 'scope_lifetime'),
    ("conflicting declaration 'float x'", 'scope_lifetime'),
    ("redefinition of 'void KernelAdd::Init()'", 'scope_lifetime'),
    ("crosses initialization of 'int k'", 'scope_lifetime'),
    ('jump to case label', 'scope_lifetime'),
    ("'n' is not captured", 'scope_lifetime'),
    ("'sum' is used uninitialized [-Werror=uninitialized]", 'scope_lifetime'),
    ("'this' was not captured for this lambda function", 'scope_lifetime'),
    ("invalid use of 'this' in non-member function", 'scope_lifetime'),
    ("there are no arguments to 'GetBlockNum2' that depend on a template parameter, so a declaration "
     "of 'GetBlockNum2' must be available [-fpermissive]", 'scope_lifetime'),
    ("'n' was declared 'extern' and later 'static' [-fpermissive]", 'scope_lifetime'),
    ("reference to local variable 'buf' returned [-Werror=return-local-addr]", 'scope_lifetime'),
    ("address of local variable 'buf' returned [-Werror=return-local-addr]", 'scope_lifetime'),
    ('returning reference to temporary [-Werror=return-local-addr]', 'scope_lifetime'),
    ('possibly dangling reference to a temporary [-Werror=dangling-reference]', 'scope_lifetime'),
    ("multiple definition of `tiling_key'", 'scope_lifetime'),
    ("the value of 'n' is not usable in a constant expression", 'scope_lifetime'),
    ("'n' is not a constant expression", 'scope_lifetime'),
    ("call to non-'constexpr' function: 'GetBlockNum' is not constexpr", 'scope_lifetime'),
    ("expected ';' before 'Muls'", 'syntax_structure'),
    ("stray '\\' in program", 'syntax_structure'),
    ('missing terminating " character', 'syntax_structure'),
    ('unterminated comment', 'syntax_structure'),
    ("extra qualification 'KernelAdd::' on member 'Init' [-fpermissive]", 'syntax_structure'),
    ('a template declaration is not allowed here', 'syntax_structure'),
    ("a function-definition is not allowed here before '{' token", 'syntax_structure'),
    ("return-statement with a value, in function returning 'void' [-fpermissive]", 'syntax_structure'),
    ('unable to parse before numeric constant', 'syntax_structure'),
    ("unqualified-id before 'if'", 'syntax_structure'),
    ("storage class specified for parameter 'n'", 'syntax_structure'),
    ("invalid declarator before 'x'", 'syntax_structure'),
    ('multiple types in one declaration', 'syntax_structure'),
    ('declaration does not declare anything [-fpermissive]', 'syntax_structure'),
    ('break statement not within loop or switch', 'syntax_structure'),
    ("case label 'ADD' not within a switch statement", 'syntax_structure'),
    ("'else' without a previous 'if'", 'syntax_structure'),
    ('empty character constant', 'syntax_structure'),
    ('extra tokens at end of #include directive', 'syntax_structure'),
    ('extra tokens after the end of the statement', 'syntax_structure'),
    ('invalid suffix "fx" on floating constant', 'syntax_structure'),
    ('parse error in template argument list', 'syntax_structure'),
    ("two or more data types in declaration of 'x'", 'syntax_structure'),
    ("ISO C++ forbids declaration of 'Init' with no type [-fpermissive]", 'syntax_structure'),
    ('no return statement in function returning non-void [-Werror=return-type]', 'syntax_structure'),
    ('non-void function does not return a value', 'syntax_structure'),
    ('invalid declaration of member template in local class', 'syntax_structure'),
    ("invalid type in declaration before ';' token", 'syntax_structure'),
    ("missing template arguments before 'q'", 'syntax_structure'),
    ("declaration of template parameter 'T' shadows template parameter", 'syntax_structure'),
    ('control reaches end of non-void function [-Werror=return-type]', 'syntax_structure'),
    ("cannot bind rvalue reference of type 'float&&' to lvalue of type 'float'", 'memory_object'),
    ("member reference type 'AscendC::TPipe *' is a pointer; did you mean to use '->'?", 'memory_object'),
    ("invalid application of 'sizeof' to a function type [-Wpointer-arith]", 'memory_object'),
    ("'this' is unavailable for static member functions", 'scope_lifetime'),
    ("'Softmax2' is not a member of 'AscendC'", 'api_signature'),
    ("'CAST_NONE' is not a member of 'AscendC'", 'scope_lifetime'),
    ("no viable conversion from 'LocalTensor<float>' to 'LocalTensor<half>'", 'dtype_conversion'),
    ("'void helper()' declared 'static' but never defined [-Werror=unused-function]", 'scope_lifetime'),
]


@pytest.mark.parametrize("message, category", MESSAGES, ids=[m[:60] for m, _ in MESSAGES])
def test_message_class(message: str, category: str) -> None:
    log = f"op_kernel/k.cpp:3:5: error: {message}\n"
    assert classify(log).value == category
    (diag,) = parse(log)
    assert diag.message == message and diag.location == "op_kernel/k.cpp:3:5"
    assert classify_diagnostic(diag).value == category


def test_every_class_has_messages() -> None:
    assert {c for _, c in MESSAGES} == {c.value for c in ErrorCategory} - {"other"}


def test_undefined_ascendc_macro_rules_also_apply_to_one_diagnostic() -> None:
    for message in ("'DTYPE_X' was not declared in this scope", "'GM_ADDR' has not been declared",
                    "'DTYPE_Y' does not name a type", "use of undeclared identifier 'GET_TILING_DATA'",
                    "unknown type name 'DTYPE_Z'"):
        assert classify_diagnostic(Diagnostic("k.cpp:1:1", "error", message)) is ErrorCategory.MACRO_PREPROCESSING


def test_overload_failures_are_refined_by_their_notes() -> None:
    head = "k.cpp:4:3: error: no matching function for call to 'Adds(LocalTensor<float>&, LocalTensor<float>&, int)'\n"
    plain = head + "k.cpp:4:3: note: candidate: 'template<class T> void Adds(...)'\n"
    assert classify(plain) is ErrorCategory.API_SIGNATURE
    conflict = head + "k.cpp:9:6: note:   deduced conflicting types for parameter 'T' ('float' and 'int')\n"
    assert classify(conflict) is ErrorCategory.DTYPE_CONVERSION
    kind = head + ("k.cpp:9:6: note:   deduced conflicting types for parameter 'T' ('float' and "
                   "'AscendC::LocalTensor<float>')\n")
    assert classify(kind) is ErrorCategory.API_SIGNATURE
    conversion = head + ("k.cpp:9:6: note:   no known conversion for argument 1 from 'LocalTensor<half>' to "
                         "'LocalTensor<float>&'\n")
    assert classify(conversion) is ErrorCategory.DTYPE_CONVERSION
    other_type = head + ("k.cpp:9:6: note:   no known conversion for argument 1 from 'TBuf<>' to "
                         "'LocalTensor<float>&'\n")
    assert classify(other_type) is ErrorCategory.API_SIGNATURE
    asserted = head + "k.cpp:9:6: note: static assertion failed: UB buffer too small\n"
    assert classify(asserted) is ErrorCategory.MEMORY_OBJECT


def test_first_classifiable_error_wins_and_warnings_are_skipped() -> None:
    log = ("k.cpp:1:1: warning: unused variable 'x' [-Wunused-variable]\n"
           "k.cpp:2:1: error: 'x' was not declared in this scope\n"
           "k.cpp:3:1: error: expected ';' before 'y'\n")
    assert classify(log) is ErrorCategory.SCOPE_LIFETIME
    assert [d.message for d in parse(log)] == ["'x' was not declared in this scope", "expected ';' before 'y'"]
    unknown = "k.cpp:2:1: error: something new happened\nk.cpp:3:1: error: expected ';' before 'y'\n"
    assert classify(unknown) is ErrorCategory.SYNTAX_STRUCTURE
    assert classify("k.cpp:2:1: error: something new happened\n") is ErrorCategory.OTHER
    macro_later = "k.cpp:2:1: error: expected ';' before 'y'\nk.cpp:5:1: error: 'DTYPE_X' does not name a type\n"
    assert classify(macro_later) is ErrorCategory.MACRO_PREPROCESSING


def test_linker_and_driver_lines() -> None:
    assert classify("/usr/bin/ld: k.o: in function `f':\nk.cpp:(.text+0x1): undefined reference to `Softmax'\n"
                    "collect2: error: ld returned 1 exit status\n") is ErrorCategory.API_SIGNATURE
    assert classify("/usr/bin/ld: a.o: multiple definition of `tiling'; b.o: first defined here\n") \
        is ErrorCategory.SCOPE_LIFETIME
    assert classify("cc1plus: error: unrecognized command-line option '-fbad'\n") is ErrorCategory.OTHER
    assert classify("k.cpp:1:10: fatal error: nope.h: No such file or directory\n") \
        is ErrorCategory.MACRO_PREPROCESSING


def test_unicode_quotes_are_normalised() -> None:
    log = "k.cpp:2:1: error: \u2018tileLength\u2019 was not declared in this scope\n"
    assert classify(log) is ErrorCategory.SCOPE_LIFETIME
    assert parse(log)[0].message == "'tileLength' was not declared in this scope"


HEAD = "k.cpp:4:3: error: no matching function for call to 'Adds(LocalTensor<float>&, int)'\n"
CONFLICT = "k.cpp:9:6: note:   deduced conflicting types for parameter 'T' ('float' and 'int')\n"


def test_notes_belong_to_the_error_before_them() -> None:
    assert classify(HEAD + CONFLICT) is ErrorCategory.DTYPE_CONVERSION
    # a warning ends the error: later notes are not its notes
    warned = HEAD + "k.cpp:5:1: warning: unused variable 'x' [-Wunused-variable]\n" + CONFLICT
    assert classify(warned) is ErrorCategory.API_SIGNATURE
    assert parse(warned)[0].notes == ()
    # a note before any error is dropped, not attached to anything
    stray = "k.cpp:1:1: note: in a previous life\nk.cpp:2:1: error: expected ';' before 'y'\n"
    (diag,) = parse(stray)
    assert diag.notes == () and classify(stray) is ErrorCategory.SYNTAX_STRUCTURE


def test_every_error_after_a_linker_line_is_parsed() -> None:
    log = "/usr/bin/ld: cannot find -lnpukb_missing\nk.cpp:2:1: error: expected ';' before 'y'\n"
    assert [d.location for d in parse(log)] == ["ld", "k.cpp:2:1"]
    assert classify(log) is ErrorCategory.SYNTAX_STRUCTURE


def test_tiling_macro_misuse_by_message_or_by_note() -> None:
    assert classify("k.cpp:3:1: error: static assertion failed: GET_TILING_DATA: the tiling struct is not "
                    "registered\n") is ErrorCategory.MACRO_PREPROCESSING
    by_note = ("k.cpp:3:1: error: the value of 'k' is not usable in a constant expression\n"
               "k.cpp:3:1: note: in expansion of macro 'TILING_KEY_IS'\n")
    assert classify(by_note) is ErrorCategory.MACRO_PREPROCESSING
    other_macro = ("k.cpp:3:1: error: the value of 'k' is not usable in a constant expression\n"
                   "k.cpp:3:1: note: in expansion of macro 'MY_MACRO'\n")
    assert classify(other_macro) is ErrorCategory.SCOPE_LIFETIME


def test_conversion_notes_are_all_read() -> None:
    first_unrelated = (HEAD + "k.cpp:9:6: note: candidate: 'void Adds(T)'\n"
                       "k.cpp:9:6: note:   no known conversion for argument 1 from 'LocalTensor<half>' to "
                       "'LocalTensor<float>&'\n")
    assert classify(first_unrelated) is ErrorCategory.DTYPE_CONVERSION
    same_type = HEAD + "k.cpp:9:6: note:   no known conversion for argument 1 from 'float' to 'float'\n"
    assert classify(same_type) is ErrorCategory.API_SIGNATURE


def test_diagnostics_are_values() -> None:
    (diag,) = parse("k.cpp:2:1: error: expected ';' before 'y'\n  2 | int y\n")
    assert diag.lines and "lines=" not in repr(diag)
    with pytest.raises(AttributeError):
        diag.message = "x"            # type: ignore[misc]
    from npukernelbench.diagnostics import RULES

    with pytest.raises(AttributeError):
        RULES[0].category = ErrorCategory.OTHER          # type: ignore[misc]
