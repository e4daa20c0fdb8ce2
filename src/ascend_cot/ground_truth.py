"""Ground truth of one project-level scenario: the op's real tiling function, run by the toolchain on
the scenario's shapes and dtypes (the expert solution, built and launched like the benchmark does),
and the comparison of a teacher's JSON summary with it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class GroundTruthError(RuntimeError):
    pass


@dataclass(frozen=True)
class TilingTruth:
    block_dim: int
    tiling_key: int
    workspace_bytes: int
    tiling: Mapping[str, Any] | None      # by field name; None when the op registers no tiling class

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"block_dim": self.block_dim, "tiling_key": self.tiling_key,
                               "workspace_bytes": self.workspace_bytes}
        if self.tiling is not None:
            out["tiling"] = dict(self.tiling)
        return out


def tiling_truth(spec: Any, case: Any, toolchain: Any) -> TilingTruth:
    """Run ``spec``'s solution on ``case`` (a ``shapes.ShapeCase``) and read what its TilingFunc set."""
    from npukernelbench.evaluate import BuildFailed, EvalOptions
    from npukernelbench.layouts.case_toml.checker import CaseTomlChecker

    if not spec.solution:
        raise GroundTruthError(f"{spec.case_id} has no expert solution to run")
    # one fixed data seed: a case's truth is the same in every corpus build
    checker = CaseTomlChecker(spec, toolchain, spec.solution, EvalOptions(shapes="static", speed=False, data_seed=0))
    seed = checker.input_seed(case, 0)
    try:
        inputs = checker.reference.make_inputs(case, seed)
        dtypes = checker.reference.dtypes(case, inputs)
        expected = checker.reference.expected(case, inputs)
        build = checker.build(dtypes)
    except BuildFailed as exc:
        raise GroundTruthError(f"the solution of {spec.case_id} does not build: {exc.build.diagnostics[:300]}") \
            from None
    run = toolchain.run(build, checker.launch(case, inputs, expected, dtypes, poison_seed=seed))
    if not run.ok:
        raise GroundTruthError(f"the solution of {spec.case_id} failed on {case.describe()}: {run.message[:300]}")
    d = run.details
    try:
        return TilingTruth(int(d["block_dim"]), int(d["tiling_key"]), int(d.get("workspace_bytes", 0)),
                           d.get("tiling_fields"))
    except (KeyError, TypeError, ValueError) as exc:
        raise GroundTruthError(f"the toolchain reported no tiling details ({exc})") from None


def _same(truth: Any, claim: Any, rel_tol: float) -> bool:
    if isinstance(truth, bool) or isinstance(claim, bool):
        return truth == claim
    if isinstance(truth, int) and isinstance(claim, int | float):
        return float(claim) == truth
    if isinstance(truth, float) and isinstance(claim, int | float):
        if math.isnan(truth):
            return math.isnan(float(claim))
        return math.isclose(truth, float(claim), rel_tol=rel_tol, abs_tol=0.0) or truth == claim
    return truth == claim


def mismatches(truth: TilingTruth, claim: Mapping[str, Any], rel_tol: float = 1e-6) -> list[str]:
    """What the claimed summary gets wrong (empty: it matches): missing, extra or different values."""
    problems: list[str] = []

    def walk(expected: Any, got: Any, where: str) -> None:
        if isinstance(expected, Mapping):
            if not isinstance(got, Mapping):
                problems.append(f"{where}: expected an object, got {got!r}"[:160])
                return
            for key, value in expected.items():
                if key not in got:
                    problems.append(f"{where}.{key}: missing (true value {value!r})"[:160])
                else:
                    walk(value, got[key], f"{where}.{key}")
            for key in got:
                if key not in expected:
                    problems.append(f"{where}.{key}: not a member of the tiling structure")
            return
        if isinstance(expected, list):
            if not isinstance(got, list) or len(got) != len(expected):
                problems.append(f"{where}: expected a list of {len(expected)}, got {got!r}"[:160])
                return
            for i, (e, g) in enumerate(zip(expected, got, strict=True)):
                walk(e, g, f"{where}[{i}]")
            return
        if not _same(expected, got, rel_tol):
            problems.append(f"{where}: claimed {got!r}, true value {expected!r}"[:160])

    summary = truth.summary()
    for key, value in summary.items():
        if key not in claim:
            problems.append(f"{key}: missing")
        else:
            walk(value, claim[key], key)
    return problems
