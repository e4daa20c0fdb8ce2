import subprocess

import pytest

from npukernelbench.diagnostics import classify, trim

PRELUDE = """#include <cstdint>
template <typename T> struct LocalTensor { T* p; void Free(); };
template <typename T> void Add(LocalTensor<T>& d, LocalTensor<T>& a, LocalTensor<T>& b, int n) {}
struct Pipe { void InitBuffer(int n); };
#define GET_TILING_DATA(var, ptr) int var = *(ptr)
void body(LocalTensor<float> f, LocalTensor<short> h, Pipe pipe, int* tiling) {
"""

CASES = [
    ("Add(f, h, f, 3);", "dtype_conversion"),
    ("Add(f, f, f);", "api_signature"),
    ("f.Freee();", "memory_object"),
    ("int y = undeclared + 1;", "scope_lifetime"),
    ("pipe->InitBuffer(3);", "memory_object"),
    ("int y = 3 int z = 4;", "syntax_structure"),
    ("GET_TILING_DATA(t);", "macro_preprocessing"),
    ("DTYPE_X v = 0;", "macro_preprocessing"),
    ("LocalTensor<float> g = h;", "dtype_conversion"),
]


def compile_log(snippet: str, tmp_path) -> str:
    src = tmp_path / "k.cpp"
    src.write_text(PRELUDE + snippet + "\n}\n")
    proc = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", str(src)], capture_output=True, text=True,
                          env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    return proc.stderr


@pytest.mark.parametrize("snippet, expected", CASES)
def test_classify_real_gxx(snippet, expected, tmp_path):
    assert classify(compile_log(snippet, tmp_path)).value == expected


def test_missing_include_and_trim(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "nope.h"\n')
    log = subprocess.run(["g++", "-fsyntax-only", str(src)], capture_output=True, text=True).stderr
    assert classify(log).value == "macro_preprocessing"
    noisy = "\n".join(f"k.cpp:{i}:1: error: expected ';' before 'x'\nk.cpp:{i}:1: note:   required from here"
                      for i in range(1, 400))
    short = trim(noisy, limit=1000)
    assert len(short) <= 1000 and "required from" not in short and "more error(s)" in short
    assert classify("") .value == "other"


def test_an_error_inside_a_library_template_names_the_callers_line():
    """A static_assert inside a simulator header fires in an instantiation: the trimmed diagnostics
    lead with the candidate's "required from here" line (g++ prints it before the error)."""
    log = ("npukb_sim/kernel/vec_binary_scalar.h: In instantiation of 'void AscendC::Muls(...)':\n"
           "op_kernel/copy_custom.cpp:12:20:   required from here\n"
           "npukb_sim/kernel/vec_binary_scalar.h:86:23: error: static assertion failed: Muls: a tensor passed "
           "where the scalar value belongs\n"
           "   86 |   static_assert(!sim::scalar_is_tensor<U>, \"...\");\n")
    text = trim(log)
    assert text.splitlines()[0] == "op_kernel/copy_custom.cpp:12:20:   required from here"
    assert "static assertion failed: Muls" in text.splitlines()[1]
    without = trim(log.replace("op_kernel/copy_custom.cpp:12:20:   required from here\n", ""))
    assert "copy_custom.cpp" not in without
