"""Wrong kernels never pass: the ``mutants`` model's numerical and tiling bugs of real expert
solutions, evaluated as a benchmark run evaluates them (static shapes, every seed, determinism),
must all be rejected. A handful of cases keeps this in CI's time budget;
``benchmarks/mutant_agreement.py`` runs the full mix."""

from __future__ import annotations

from pathlib import Path

import pytest

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.generators.mutants import mutate
from npukernelbench.result import Status
from npukernelbench.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmark_cases"

# (case, mutant sample): a tiling bug in host code, numerical bugs in float16 and bfloat16 kernels.
WRONG = [("level1/math/add_custom", 0), ("level1/math/add_custom", 17), ("level1/math/neg", 11)]


@pytest.mark.parametrize("case, sample", WRONG, ids=[f"{c.rsplit('/', 1)[1]}-{s}" for c, s in WRONG])
def test_wrong_mutant_never_passes(case: str, sample: int, toolchain) -> None:
    spec = load_spec(CASES / case, CASES)
    assert spec.solution
    files, meta = mutate(dict(spec.solution), spec.kernel, spec.case_id, sample, 0)
    assert meta["label"] == "wrong" and files != dict(spec.solution), meta
    result = evaluate(spec, Completion(spec.case_id, sample, files=files, meta=meta), toolchain,
                      EvalOptions(shapes="static", speed=False))
    assert result.status is not Status.PASSED, f"{meta['mutation']} in {meta['file']} passed"
    assert result.status in (Status.WRONG, Status.RUNTIME_ERROR, Status.TIMEOUT), result.message   # not a build error
    assert result.message
