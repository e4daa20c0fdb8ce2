"""The cube-unit mutations of the ``mutants`` model: they apply only to kernels that use the cube unit,
and each one, run through the real evaluate pipeline on the matmul_add expert solution (a mixed
AIC/AIV kernel), gets the status its label names with a message that says what went wrong."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.generators.mutants import CUBE_MUTATIONS, MUTATIONS, mutate, mutations_for
from npukernelbench.result import Status
from npukernelbench.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "benchmark_cases"
FAST = EvalOptions(shapes="static", speed=False, run_timeout_s=60.0, seeds=1)


@pytest.fixture(scope="module")
def matmul_add():
    return load_spec(CASES / "level3" / "gmm" / "matmul_add", CASES)


def _mutation(name: str):
    return next(m for m in CUBE_MUTATIONS if m.name.startswith(name))


def _mutated(spec, name: str) -> tuple[dict[str, str], str]:
    """The solution with the named cube mutation applied to the first file it applies to."""
    files = dict(spec.solution)
    mutation = _mutation(name)
    for path in sorted(p for p in files if p.startswith("op_kernel/")):
        out = mutation.apply(files[path], random.Random(0))
        if out is not None and out != files[path]:
            return {**files, path: out}, mutation.label
    raise AssertionError(f"{name!r} applies to no kernel file of {spec.case_id}")


def test_cube_mutations_only_for_cube_kernels(matmul_add) -> None:
    vector_only = load_spec(CASES / "level1" / "math" / "add_custom", CASES)
    assert mutations_for(dict(vector_only.solution)) == MUTATIONS
    assert mutations_for(dict(matmul_add.solution)) == MUTATIONS + CUBE_MUTATIONS
    names = {mutate(dict(matmul_add.solution), matmul_add.kernel, matmul_add.case_id, i, 0)[1]["mutation"]
             for i in range(2 * len(MUTATIONS + CUBE_MUTATIONS))}
    assert {m.name for m in CUBE_MUTATIONS} <= names


def test_each_cube_mutation_changes_the_code(matmul_add) -> None:
    for mutation in CUBE_MUTATIONS:
        files, label = _mutated(matmul_add, mutation.name)
        assert files != dict(matmul_add.solution) and label == mutation.label


@pytest.mark.parametrize(("name", "status", "words"), [
    ("cube: an L1/L0 buffer", Status.RUNTIME_ERROR, ("overflow", "exceeds the")),
    ("cube: a cross-core flag", Status.RUNTIME_ERROR, ("deadlock", "CrossCoreWaitFlag")),
    ("cube: LoadData transposes", Status.WRONG, ()),
])
def test_cube_mutant_gets_its_status(matmul_add, sim, name, status, words) -> None:
    files, label = _mutated(matmul_add, name)
    assert label == status.value
    result = evaluate(matmul_add, Completion(task=matmul_add.case_id, sample=0, files=files), sim, FAST)
    assert result.status is status, result.message
    for word in words:
        assert word in result.message, result.message
