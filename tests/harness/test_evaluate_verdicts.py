"""evaluate()'s verdict logic on the g++ test toolchain: every way a candidate can fail gets its own
status, a failure on any shape case or seed fails the sample, and speed is reported only for
passing samples (suspect speedups flagged)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from gxx_toolchain import GxxToolchain

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.result import ErrorCategory, Status
from npukernelbench.spec import ParamDecl, load_spec

CASES = Path(__file__).resolve().parents[1] / "data" / "gxx_cases"
STATIC = EvalOptions(shapes="static", seeds=1)

HEAD = """#include <cmath>
extern "C" unsigned int sleep(unsigned int seconds);
extern "C" void vadd(void** inputs, void** outputs, long n, const double* attrs, long* cost) {
    DTYPE_X* x = static_cast<DTYPE_X*>(inputs[0]);
    const DTYPE_Y* y = static_cast<const DTYPE_Y*>(inputs[1]);
    DTYPE_Z* z = static_cast<DTYPE_Z*>(outputs[0]);
    const unsigned char poison = reinterpret_cast<unsigned char*>(z)[0];
    (void)poison;
"""
ADD = "    for (long i = 0; i < n; ++i) z[i] = x[i] + y[i];\n"


def kernel(body: str, cost: str = "100 + n") -> str:
    return HEAD + body + f"    *cost += {cost};\n}}\n"


@pytest.fixture(scope="module")
def gxx() -> GxxToolchain:
    return GxxToolchain()            # content-keyed build cache shared with test_plugin.py


@pytest.fixture(scope="module")
def vadd():
    return load_spec(CASES / "level1" / "math" / "vadd", CASES)


def run(spec, gxx, kernel_text: str | None = None, options: EvalOptions = STATIC, files=None, text=None):
    if files is None and text is None:
        files = {"op_host/vadd.cpp": "// host\n", "op_kernel/vadd.cpp": kernel_text}
    return evaluate(spec, Completion(spec.case_id, 0, text=text, files=files), gxx, options)


def test_correct_kernel_passes_with_speed(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel(ADD))
    assert result.status is Status.PASSED, result.message
    assert result.speedup == pytest.approx(1.0) and not result.suspect and result.message == ""
    assert result.shapes_checked == 2 and result.speed_kind == "estimated"
    assert result.time_us == pytest.approx(((100 + 1000) + (100 + 231)) / 1000)
    assert result.baseline_time_us == pytest.approx(result.time_us)
    assert result.details["max_abs_error"] == 0.0 and result.details["max_rel_error"] == 0.0


@pytest.mark.parametrize("cost, speedup, suspect", [("2 * (100 + n)", 0.5, False), ("(100 + n) / 4", 4.0084, False),
                                                     ("(100 + n) / 20", 20.1549, True)])
def test_speedup_against_the_expert_solution(vadd, gxx, cost, speedup, suspect) -> None:
    result = run(vadd, gxx, kernel(ADD, cost))           # integer costs: 1431 / 357 = 4.008403 -> 4 digits
    assert result.status is Status.PASSED
    assert result.speedup == speedup and result.suspect is suspect
    assert (result.message == f"suspect: speedup {speedup}x is above the audit threshold 10x") is suspect
    assert 0 <= result.seconds < 600


def test_suspect_means_strictly_above_the_threshold(vadd, gxx) -> None:
    at = run(vadd, gxx, kernel(ADD, "(100 + n) / 4"), EvalOptions(shapes="static", seeds=1, suspect_speedup=4.0084))
    assert at.speedup == 4.0084 and not at.suspect
    above = run(vadd, gxx, kernel(ADD, "(100 + n) / 4"), EvalOptions(shapes="static", seeds=1, suspect_speedup=4.0))
    assert above.suspect


def test_zero_time_gives_no_speedup(vadd, gxx) -> None:
    # a kernel time of zero is below every sanity floor: no speedup, and flagged with the floor's reason
    result = run(vadd, gxx, kernel(ADD, "0"))
    assert result.status is Status.PASSED and result.speedup is None and result.suspect
    assert any("1.6 TB/s" in reason for reason in result.details["suspect_reasons"])


def test_in_place_output_may_change_its_input_only(vadd, gxx) -> None:
    spec = replace(vadd, outputs=(ParamDecl("z", "T", inplace="x"),), solution=None)
    in_place = ADD + "    for (long i = 0; i < n; ++i) x[i] = z[i];\n"
    assert run(spec, gxx, kernel(in_place)).status is Status.PASSED
    other = kernel(ADD + "    const_cast<DTYPE_Y*>(y)[0] = 0;\n")
    result = run(spec, gxx, other)
    assert result.status is Status.WRONG and "input 'y' was modified" in result.message


def test_a_completion_with_nothing_is_a_parse_error(vadd, gxx) -> None:
    result = evaluate(vadd, Completion(vadd.case_id, 0), gxx, STATIC)
    assert result.status is Status.PARSE_ERROR


def test_dynamic_only_failures_are_found_after_static_passes(vadd, gxx, tmp_path) -> None:
    body = ADD + "    if (n != 1000 && n != 231) z[0] += 1.0f;\n"
    assert run(vadd, gxx, kernel(body)).status is Status.PASSED                    # static shapes only
    for examples in (1, 3):
        options = EvalOptions(shapes="both", shape_examples=examples, seeds=1, speed=False, shrink_budget=2,
                              scratch_dir=tmp_path)
        assert run(vadd, gxx, kernel(body), options).status is Status.WRONG


def test_nothing_to_check_dynamically_falls_back_to_static(vadd, gxx, tmp_path) -> None:
    wrong = kernel(ADD + "    z[0] += 1.0f;\n")
    for options in (EvalOptions(shapes="dynamic", shape_examples=0, seeds=1, speed=False),
                    EvalOptions(shapes="both", shape_examples=0, seeds=1, speed=False)):
        result = run(vadd, gxx, wrong, options)
        assert result.status is Status.WRONG, options
    right = run(vadd, gxx, kernel(ADD), EvalOptions(shapes="dynamic", shape_examples=0, seeds=1, speed=False))
    assert right.status is Status.PASSED and right.shapes_checked == 2


class UncategorisedGxx(GxxToolchain):
    """A toolchain that leaves classification to the harness (error_category is optional)."""

    def build(self, project):
        return replace(super().build(project), error_category=None)


def test_no_speed_when_disabled(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel(ADD), EvalOptions(shapes="static", seeds=1, speed=False))
    assert result.status is Status.PASSED and result.speedup is None and result.baseline_time_us is None
    assert result.time_us is not None and not result.suspect


def test_modified_input_is_wrong(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel(ADD + "    x[0] = 0;\n"))
    assert result.status is Status.WRONG and "input 'x' was modified" in result.message


def test_wrong_only_on_the_second_static_case(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel(ADD + "    if (n == 231) z[230] += 1.0f;\n"),
                 EvalOptions(shapes="static", seeds=1, data_seed=12345))
    assert result.status is Status.WRONG and "output 'z'" in result.message
    assert "(input seed " in result.message and "; data seed 12345)" in result.message
    assert "[3, 77]" in result.details["case"]


def test_wrong_on_a_later_seed(vadd, gxx) -> None:
    # the inputs differ per seed: a kernel right on the first seed only still fails
    body = ADD + "    static int calls = 0;\n    if (x[0] != x[0] * 1.0f) calls = 0;\n"
    assert run(vadd, gxx, kernel(body), EvalOptions(shapes="static", speed=False)).status is Status.PASSED
    seed_dependent = ADD + "    if (x[0] > 0.5f) z[0] = 0;\n"
    options = _first_seed_below(vadd, gxx, 0.5)
    result = run(vadd, gxx, kernel(seed_dependent), options)
    assert result.status is Status.WRONG and "input seed" in result.message


def _first_seed_below(spec, gxx, limit: float) -> EvalOptions:
    """Options whose data seed gives x[0] <= limit on the first input seed of the first static case and
    x[0] > limit on one of its later seeds (the data come from the data seed, so one is searched for)."""
    from npukernelbench.inputs import to_values
    from npukernelbench.layouts.case_toml.checker import CaseTomlChecker
    from npukernelbench.shapes import static_cases

    case = static_cases(spec)[0]
    for data_seed in range(1000):
        options = EvalOptions(shapes="static", speed=False, data_seed=data_seed)
        checker = CaseTomlChecker(spec, gxx, {}, options)
        first = [float(to_values(checker.reference.make_inputs(case, checker.input_seed(case, s))["x"], "float32")
                       .flat[0]) for s in range(spec.seeds)]
        if first[0] <= limit < max(first[1:]):
            return options
    raise AssertionError("no data seed found")


def test_nondeterministic_output_is_wrong(vadd, gxx) -> None:
    body = ADD + "    if (poison & 1) z[0] = std::nextafter(z[0], 1e30f);\n"     # 1 ulp: within tolerance
    result = run(vadd, gxx, kernel(body))
    assert result.status is Status.WRONG and "nondeterministic" in result.message
    relaxed = run(vadd, gxx, kernel(body), EvalOptions(shapes="static", seeds=1, determinism=False))
    assert relaxed.status is Status.PASSED, relaxed.message


def test_crash_is_a_runtime_error(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel(ADD + "    if (n > 0) *static_cast<volatile int*>(nullptr) = 1;\n"))
    assert result.status is Status.RUNTIME_ERROR and "crashed" in result.message


def test_sleeping_kernel_times_out(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel("    sleep(30);\n" + ADD), EvalOptions(shapes="static", seeds=1, run_timeout_s=1.0))
    assert result.status is Status.TIMEOUT and "1 s wall-clock limit" in result.message


def test_build_error_is_classified(vadd, gxx) -> None:
    result = run(vadd, gxx, kernel(ADD + "    undeclared_thing = 1;\n"))
    assert result.status is Status.BUILD_ERROR and result.error_category is ErrorCategory.SCOPE_LIFETIME
    assert result.message.startswith("[scope_lifetime]") and "undeclared_thing" in result.message
    assert "undeclared_thing" in result.details["diagnostics"]
    assert 0 <= result.seconds < 600
    itself = run(vadd, UncategorisedGxx(), kernel(ADD + "    undeclared_thing = 1;\n"))
    assert itself.status is Status.BUILD_ERROR and itself.error_category is ErrorCategory.SCOPE_LIFETIME


def test_parse_error_and_rejection(vadd, gxx) -> None:
    missing = run(vadd, gxx, files={"op_kernel/vadd.cpp": kernel(ADD)})
    assert missing.status is Status.PARSE_ERROR and "no host source" in missing.message
    empty = run(vadd, gxx, files={"op_host/vadd.cpp": "  \n", "op_kernel/vadd.cpp": kernel(ADD)})
    assert empty.status is Status.PARSE_ERROR
    no_code = run(vadd, gxx, text="I cannot write this kernel.")
    assert no_code.status is Status.PARSE_ERROR
    rejected = run(vadd, gxx, kernel(ADD + '    auto f = fopen("/etc/passwd", "r");\n'))
    assert rejected.status is Status.REJECTED and rejected.details["rule"] == "file-access"
    assert rejected.details["cases"] == {"passed": 0, "total": 2} and set(rejected.details) == {"rule", "cases", "soc"}


def test_cases_after_a_failing_one_are_counted_for_upstreams_score(vadd, gxx) -> None:
    """The first static case (n = 1000) fails, the second (3 x 77) passes: the verdict is the first
    case's, and ``details["cases"]`` counts 1 of 2 (0 of 2 when the count is turned off)."""
    body = ADD + "    if (n == 1000) z[0] = -1.0f;\n"
    result = run(vadd, gxx, kernel(body), EvalOptions(shapes="static", seeds=1, data_seed=7))
    assert result.status is Status.WRONG and "1000" in result.details["case"], result.details
    assert result.details["cases"] == {"passed": 1, "total": 2} and result.shapes_checked == 0
    off = run(vadd, gxx, kernel(body), EvalOptions(shapes="static", seeds=1, data_seed=7, case_score=False))
    assert (off.status, off.message, off.shapes_checked, off.stage) == \
        (result.status, result.message, result.shapes_checked, result.stage)
    assert off.details["cases"] == {"passed": 0, "total": 2}
    good = run(vadd, gxx, kernel(ADD))
    assert good.details["cases"] == {"passed": 2, "total": 2}


def test_dynamic_failure_is_shrunk_and_replayable(vadd, gxx, tmp_path) -> None:
    body = ADD + "    if (n > 150) z[n - 1] = -1.0f;\n"
    options = EvalOptions(shapes="dynamic", shape_examples=6, shape_seed=3, seeds=1, speed=False, shrink_budget=4,
                          scratch_dir=tmp_path)
    result = run(vadd, gxx, kernel(body), options)
    assert result.status is Status.WRONG
    assert "minimal failing dynamic case" in result.message and "--shape-seed=3" in result.message
    both = run(vadd, gxx, kernel(body), EvalOptions(shapes="both", shape_examples=6, shape_seed=3, seeds=1,
                                                    speed=False, shrink_budget=4, scratch_dir=tmp_path))
    assert both.status is Status.WRONG and "[1000]" in both.details["case"]      # the static case fails first
