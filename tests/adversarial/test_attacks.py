"""One realistic attack per test, fed through the real evaluate pipeline (extract -> static checks
-> build with g++ -> simulated run in a child process -> strict comparison), each asserting the
exact status it must get. Kernels are edits of the add_custom expert solution, as a model that
games the reward would write them."""

from __future__ import annotations

import json
import random
import time

import pytest

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.result import Status

HOST = "op_host/add_custom.cpp"
KERNEL = "op_kernel/add_custom.cpp"
# Parse errors happen before anything is built: those tests run without a toolchain. Static-check
# rejections need the toolchain's include allow-list and preprocessing, and nothing more: they get
# `checks_only` (a check that failed to reject would reach its build, failing the test).
NO_TOOLCHAIN = None


class ChecksOnly:
    """The real toolchain as the static checks see it; asking it to build or run fails the test."""

    def __init__(self, real) -> None:
        self._real = real

    def include_allowlist(self):
        return self._real.include_allowlist()

    def preprocessing(self):
        return self._real.preprocessing()

    def __getattr__(self, name: str):
        raise AssertionError(f"the attack got past the static checks: the evaluation asked for toolchain.{name}")


@pytest.fixture
def checks_only(toolchain) -> ChecksOnly:
    return ChecksOnly(toolchain)
FAST = EvalOptions(shapes="static", speed=False, run_timeout_s=20.0)


def edit(files: dict[str, str], path: str, old: str, new: str) -> dict[str, str]:
    """``files`` with one exact replacement in ``path`` (fails loudly when the anchor moved)."""
    text = files[path]
    assert old in text, f"anchor {old!r} not found in {path}: the expert solution changed"
    return {**files, path: text.replace(old, new, 1)}


def run(spec, toolchain, files=None, text=None, options=FAST):
    return evaluate(spec, Completion(task=spec.case_id, sample=0, text=text, files=files), toolchain, options)


def as_completion_text(files: dict[str, str]) -> str:
    return "Here is the kernel.\n\n" + "\n".join(f"=== {p} ===\n```cpp\n{t}\n```\n" for p, t in files.items())


# ---------------------------------------------------------------- pass-through sanity (no attack)

def test_expert_solution_passes(add_spec, solution, toolchain) -> None:
    result = run(add_spec, toolchain, files=solution)
    assert result.status is Status.PASSED, result.message


# ------------------------------------------------------------------------ wrong answers in disguise

def test_hard_coded_static_shape_is_wrong(add_spec, solution, toolchain) -> None:
    # the tiling assumes the first listed shape (2048 elements) instead of reading the input shape
    files = edit(solution, HOST,
                 "uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();",
                 "uint32_t totalLength = 2048;")
    result = run(add_spec, toolchain, files=files)
    assert result.status is Status.WRONG, result.message


def test_output_left_untouched_is_wrong(add_spec, solution, toolchain) -> None:
    files = edit(solution, KERNEL, "    op.Process();\n", "")
    result = run(add_spec, toolchain, files=files)
    assert result.status is Status.WRONG, result.message


def test_input_mutated_is_wrong(add_spec, solution, toolchain) -> None:
    # writes the result over x as well: a reference computed from the mutated x would agree
    files = edit(solution, KERNEL, "        DataCopyPad(zGm[tile * tileLength], zLocal, params);\n",
                 "        DataCopyPad(zGm[tile * tileLength], zLocal, params);\n"
                 "        DataCopyPad(xGm[tile * tileLength], zLocal, params);\n")
    result = run(add_spec, toolchain, files=files)
    assert result.status is Status.WRONG, result.message
    assert "input" in result.message.lower(), result.message


def test_out_of_bounds_access_is_a_runtime_error(add_spec, solution, toolchain) -> None:
    files = edit(solution, HOST, "tiling.set_totalLength(totalLength);",
                 "tiling.set_totalLength(totalLength + 4096);")
    files = edit(files, KERNEL, "        if (end > totalLength) {",
                 "        if (false && end > totalLength) {")
    files = edit(files, HOST, "uint32_t totalBlocks = (totalLength + elemsPerBlock - 1) / elemsPerBlock;",
                 "uint32_t totalBlocks = (totalLength + 4096 + elemsPerBlock - 1) / elemsPerBlock;")
    result = run(add_spec, toolchain, files=files)
    assert result.status is Status.RUNTIME_ERROR, result.message
    assert "GM" in result.message and "past its end" in result.message, result.message


def test_spinning_forever_is_a_timeout(add_spec, solution, toolchain) -> None:
    files = edit(solution, KERNEL, "    op.Process();\n", "    for (volatile uint64_t i = 0; ; ++i) {}\n")
    options = EvalOptions(shapes="static", speed=False, run_timeout_s=3.0)
    start = time.monotonic()
    result = run(add_spec, toolchain, files=files, options=options)
    assert result.status is Status.TIMEOUT, result.message
    assert time.monotonic() - start < 60


# -------------------------------------------------------------------------- escapes (static checks)

def test_tiling_reading_passwd_is_rejected(add_spec, solution, checks_only) -> None:
    files = edit(solution, HOST, "    AddCustomTilingData tiling;\n",
                 '    char buf[64] = {0};\n    FILE* f = fopen("/etc/passwd", "r");\n'
                 "    if (f) { fread(buf, 1, 63, f); fclose(f); }\n"
                 "    AddCustomTilingData tiling;\n")
    files = {**files, HOST: "#include <cstdio>\n" + files[HOST]}
    result = run(add_spec, checks_only, text=as_completion_text(files))
    assert result.status is Status.REJECTED and result.details["rule"] == "file-access", result.message


def test_tiling_reading_the_repo_is_rejected(add_spec, solution, checks_only) -> None:
    files = edit(solution, HOST, "    AddCustomTilingData tiling;\n",
                 '    std::ifstream ref("../../../benchmark_cases/level1/math/add_custom/reference.py");\n'
                 "    AddCustomTilingData tiling;\n")
    files = {**files, HOST: "#include <fstream>\n" + files[HOST]}
    result = run(add_spec, checks_only, files=files)
    assert result.status is Status.REJECTED, result.message
    assert result.details["rule"] == "include-not-allowed", result.message


def test_socket_is_rejected(add_spec, solution, checks_only) -> None:
    files = edit(solution, HOST, "    AddCustomTilingData tiling;\n",
                 "    int s = socket(2, 1, 0);\n    (void)s;\n    AddCustomTilingData tiling;\n")
    result = run(add_spec, checks_only, files=files)
    assert result.status is Status.REJECTED and result.details["rule"] == "network", result.message


@pytest.mark.parametrize("code,rule", [
    ("    while (fork() >= 0) {}\n", "process"),
    ('    system("sleep 1000 &");\n', "process"),
    ('    popen("cat /etc/passwd", "r");\n', "process"),
])
def test_spawning_processes_is_rejected(add_spec, solution, code: str, rule: str, checks_only) -> None:
    anchor = "    AddCustomTilingData tiling;\n"
    files = edit(solution, HOST, anchor, code + anchor)
    result = run(add_spec, checks_only, files=files)
    assert result.status is Status.REJECTED and result.details["rule"] == rule, result.message


def test_including_a_host_file_is_rejected_and_never_leaks(add_spec, solution, checks_only) -> None:
    for target in ("/etc/passwd", "../../../../../../../../../../etc/passwd"):
        files = {**solution, KERNEL: f'#include "{target}"\n' + solution[KERNEL]}
        result = run(add_spec, checks_only, files=files)
        assert result.status is Status.REJECTED and result.details["rule"] == "include-path", result.message
        assert "root:x:0:0" not in json.dumps(result.to_json())


# ------------------------------------------------------------------------------ compiler attacks

def test_template_recursion_bomb_is_a_build_error_within_the_limit(add_spec, solution, toolchain) -> None:
    bomb = ("template <int N> struct Bomb {\n"
            "    static constexpr long v = Bomb<N - 1>::v + Bomb<N - 2>::v + Bomb<N - 3>::v;\n};\n"
            "constexpr long boom = Bomb<100000>::v;\n")
    files = {**solution, KERNEL: solution[KERNEL] + bomb}
    start = time.monotonic()
    result = run(add_spec, toolchain, files=files)
    assert result.status is Status.BUILD_ERROR, result.message
    assert time.monotonic() - start < 300
    assert len(json.dumps(result.to_json())) < 200_000


def test_fifty_megabyte_compiler_log_is_cut(add_spec, solution, toolchain) -> None:
    # 2^14 ill-typed statements, each error echoed with 14 levels of macro-expansion notes: ~50 MB
    macros = '#define E0 { int e = "x"; }\n'
    macros += "".join(f"#define E{i} E{i - 1} E{i - 1}\n" for i in range(1, 15))
    files = {**solution, KERNEL: solution[KERNEL] + macros + "void flood() { E14 }\n"}
    result = run(add_spec, toolchain, files=files)
    assert result.status is Status.BUILD_ERROR, result.message
    assert len(result.message) < 2_000
    assert len(json.dumps(result.to_json())) < 200_000


# --------------------------------------------------------------------------------- junk completions

def test_ten_megabytes_of_junk_is_a_fast_parse_error(add_spec) -> None:
    rng = random.Random(0)
    junk = "".join(rng.choices("abc{}()<>;#`=\n ", k=10 * 1024 * 1024))
    start = time.monotonic()
    result = run(add_spec, NO_TOOLCHAIN, text=junk)
    assert result.status is Status.PARSE_ERROR, result.message
    assert time.monotonic() - start < 5
    assert len(result.message) < 2_000


def test_completion_without_a_code_block_is_a_parse_error(add_spec) -> None:
    answer = "To add x and y, load both tiles into UB, call Add, and copy z out."
    result = run(add_spec, NO_TOOLCHAIN, text=answer)
    assert result.status is Status.PARSE_ERROR, result.message
