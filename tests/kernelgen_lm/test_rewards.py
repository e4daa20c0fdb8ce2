"""The execution reward (kernelgen_lm.rewards): the shaping table, real evaluations by the benchmark's
pipeline (an expert solution, broken completions) in worker processes, an infrastructure failure as
"no reward" (never a number), and verl's compute_score on one case."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelgen_lm.rewards import RewardShaping, RewardUnavailable, compute_score, reward_of, score_completions
from npukernelbench.result import SampleResult, Status

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmark_cases"
ADD_CUSTOM = CASES / "level1" / "math" / "add_custom"
BROKEN_INFRA = "infra_toolchain:BrokenBuildToolchain"      # tests/kernelgen_lm/infra_toolchain.py


def result(status: Status, **kw) -> SampleResult:
    return SampleResult("level1/math/add_custom", 1, "math", 0, status, **kw)


@pytest.mark.parametrize(("status", "kw", "expected"), [
    (Status.PARSE_ERROR, {}, -1.0),
    (Status.REJECTED, {}, -1.0),                                  # refused by the static checks
    (Status.BUILD_ERROR, {}, -0.5),
    (Status.RUNTIME_ERROR, {}, 0.0),
    (Status.TIMEOUT, {}, 0.0),
    (Status.WRONG, {}, 0.25),
    (Status.PASSED, {}, 1.0),                                     # no speed measured: no bonus
    (Status.PASSED, {"speedup": 0.5}, 1.0),                       # slower than the expert: no bonus, no penalty
    (Status.PASSED, {"speedup": 1.6}, 1.3),                       # 0.5 x (1.6 - 1)
    (Status.PASSED, {"speedup": 9.0}, 2.0),                       # capped at 1
    (Status.PASSED, {"speedup": 20.0, "suspect": True}, 1.0),     # the speed audit flags it: no bonus
    (Status.WRONG, {"speedup": 3.0}, 0.25),                       # speed counts for passed samples only
])
def test_shaping_table(status, kw, expected):
    assert reward_of(result(status, **kw)) == pytest.approx(expected)


def test_shaping_values_are_settings_and_no_outcome_is_none():
    shaping = RewardShaping(parse_error=-2, build_error=-1, runtime_error=-0.1, wrong=0.5, passed=3,
                            speedup_weight=1.0, speedup_cap=0.25)
    assert [reward_of(result(s), shaping) for s in (Status.PARSE_ERROR, Status.BUILD_ERROR, Status.TIMEOUT,
                                                    Status.WRONG)] == [-2, -1, -0.1, 0.5]
    assert reward_of(result(Status.PASSED, speedup=1.1), shaping) == pytest.approx(3.1)
    assert reward_of(result(Status.PASSED, speedup=4.0), shaping) == pytest.approx(3.25)
    assert reward_of("infrastructure failure (not the kernel's fault): disk full") is None
    assert reward_of(None) is None
    with pytest.raises(ValueError, match="speedup_cap"):
        RewardShaping(speedup_cap=-1)


def test_real_evaluations_in_worker_processes():
    """The expert solution passes (speedup 1 against itself: exactly the pass reward), text without
    code is a parse error, a misspelt API a build error; evaluated by two worker processes."""
    from npukernelbench.cases import load_case
    from npukernelbench.extract import render_files

    spec = load_case(ADD_CUSTOM)
    expert = render_files(dict(spec.solution))
    misspelt = expert.replace("Add(", "Addd(", 1)
    assert misspelt != expert
    scored = score_completions([(spec, "I cannot write this kernel."), (spec, expert), (spec, misspelt)], jobs=2)
    assert [s.outcome.status for s in scored] == [Status.PARSE_ERROR, Status.PASSED, Status.BUILD_ERROR]
    assert [s.reward for s in scored] == [-1.0, 1.0, -0.5]


def test_infrastructure_failure_gives_no_reward():
    """A build that fails in our machinery (twice: evaluate retries once) is None, not 0 or -0.5; text
    without code never reaches the build and keeps its reward."""
    from npukernelbench.cases import load_case
    from npukernelbench.extract import render_files

    spec = load_case(ADD_CUSTOM)
    scored = score_completions([(spec, render_files(dict(spec.solution))), (spec, "no code")], toolchain=BROKEN_INFRA)
    assert scored[0].reward is None and "infrastructure failure" in scored[0].outcome
    assert "SIGKILL (injected by the test)" in scored[0].outcome
    assert scored[1].reward == -1.0


def test_verl_compute_score():
    from npukernelbench.cases import load_case
    from npukernelbench.extract import render_files

    expert = render_files(dict(load_case(ADD_CUSTOM).solution))
    assert compute_score("npukb", expert, f"{CASES}::level1/math/add_custom") == 1.0
    assert compute_score("npukb", "no code", str(ADD_CUSTOM)) == -1.0
    assert compute_score("npukb", "no code", str(ADD_CUSTOM), {"parse_error": -3}) == -3.0
    with pytest.raises(RewardUnavailable, match="infrastructure failed .not the completion's fault.*SIGKILL"):
        compute_score("npukb", expert, str(ADD_CUSTOM), {"toolchain": BROKEN_INFRA})
    with pytest.raises(ValueError, match="no case 'level1/nope' under"):
        compute_score("npukb", expert, f"{CASES}::level1/nope")
    with pytest.raises(ValueError, match="not a case folder"):
        compute_score("npukb", expert, str(ROOT / "no-such-folder"))
