"""What every layout's checker shares: options, outcomes, stage tracking, the seed loop of one shape
case, the static cases, and the hypothesis search of dynamic ones.

A layout (``npukernelbench.layouts``) subclasses :class:`Checker` with how one input seed of one case
is checked (``check_seed``: inputs, reference, the candidate through the toolchain, comparison,
determinism, costs and speed floors on the first seed), how a case is built (``build_case``) and which
dynamic cases it draws (``case_strategy``; a drawn case the task's own code refuses raises
:class:`~npukernelbench.shapes.DrawRejected` from ``check_seed``). Everything else is here, the same
for every layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from npukernelbench.data_seed import fresh_data_seed
from npukernelbench.infrastructure import InfrastructureError
from npukernelbench.inputs import case_seed
from npukernelbench.modes import task_soc
from npukernelbench.phase_clock import PhaseClock
from npukernelbench.result import Stage, Status
from npukernelbench.shapes import DrawRejected, ShapeCase, search, static_cases
from npukernelbench.spec import TaskSpec
from npukernelbench.speed_audit import SUSPECT_SPEEDUP, RunCost
from npukernelbench.toolchains.base import BuildResult, Toolchain

__all__ = ["BaselineCache", "BuildFailed", "CaseOutcome", "Checker", "DrawRejected", "EvalOptions", "SeedChecked"]


@dataclass(frozen=True)
class EvalOptions:
    shapes: str = "both"              # static | dynamic | both
    shape_examples: int = 10          # hypothesis examples per sample in dynamic mode
    shape_seed: int = 0               # hypothesis seed: the printed replay seed
    seeds: int | None = None          # input seeds per shape; None: spec.seeds (>= 3 by default)
    run_timeout_s: float = 60.0
    determinism: bool = True
    speed: bool = True
    suspect_speedup: float = SUSPECT_SPEEDUP
    shrink_budget: int = 20
    scratch_dir: Path | None = None   # where the dynamic-shape search may write (the run directory's scratch)
    data_seed: int | None = None      # every case's input data derives from it; None: drawn fresh (os.urandom)
    profile: bool = False             # time every phase (SampleResult.details['phases'], phase_clock.py)
    case_score: bool = True           # after a failing static case, still check the rest (upstream's score)
    input_budget: int = 1 << 20       # MultiKernelBench tasks: input elements after scaling down (0: full size)
    soc: str | None = None            # SoC profile (--npukb-soc); None: the task layout's default_soc

    def __post_init__(self) -> None:
        if self.shapes not in ("static", "dynamic", "both"):
            raise ValueError(f"shapes must be static, dynamic or both, got {self.shapes!r}")
        if self.data_seed is None:
            object.__setattr__(self, "data_seed", fresh_data_seed())


@dataclass(frozen=True)
class CaseOutcome:
    status: Status
    message: str = ""
    time_us: float | None = None
    baseline_us: float | None = None
    case: ShapeCase | None = None
    max_abs: float = 0.0
    max_rel: float = 0.0
    kernel_us: float | None = None            # time_us without the toolchain's fixed launch overhead
    baseline_kernel_us: float | None = None
    floor_reasons: tuple[str, ...] = ()       # speed_audit floors this run is below


@dataclass(frozen=True)
class SeedChecked:
    """One input seed of one case that passed: its worst errors and, on the first seed, its costs."""

    max_abs: float = 0.0
    max_rel: float = 0.0
    time_us: float | None = None
    cost: RunCost | None = None
    baseline: RunCost | None = None
    floors: tuple[str, ...] = ()              # speed_audit floors the run is below


class BuildFailed(Exception):
    def __init__(self, build: BuildResult):
        super().__init__(build.diagnostics)
        self.build = build


@dataclass
class BaselineCache:
    """Expert-solution run costs per (toolchain, task, shape case, seed), shared by every sample in a
    process. The expert project goes through the same toolchain (whose builds are cached)."""

    times: dict[tuple[str, ...], RunCost | None] = field(default_factory=dict)
    builds: dict[tuple[str, ...], BuildResult] = field(default_factory=dict)

    def key(self, toolchain: Toolchain, spec: TaskSpec, case: ShapeCase, seed: int,
            soc: str | None = None) -> tuple[str, ...]:
        return (toolchain.name, str(soc), str(spec.folder), case.key(), str(seed))


class Checker:
    """Runs one candidate project against a task's reference on its static cases and on drawn ones:
    ``check(case)``, ``check_static()``, ``check_dynamic(examples, seed)``, ``build_case(case)``.
    Build failures raise :class:`BuildFailed`; ``stage`` is the furthest stage the candidate reached."""

    def __init__(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                 options: EvalOptions | None = None, baseline: BaselineCache | None = None):
        self.spec = spec
        self.toolchain = toolchain
        self.files = dict(files)
        self.options = options or EvalOptions()
        self.baseline = baseline if baseline is not None else BaselineCache()
        self.soc = task_soc(spec, self.options.soc)   # every launch of this checker simulates it
        self.builds: dict[tuple[Any, ...], BuildResult] = {}
        self.is_solution = spec.solution is not None and dict(spec.solution) == self.files
        self.shapes_checked = 0
        self.stage = Stage.COLLECTED
        self.clock = PhaseClock()                 # where the time goes (reported when options.profile)

    def _reach(self, stage: Stage) -> None:
        order = Stage.order()
        if order.index(stage) > order.index(self.stage):
            self.stage = stage

    # -- what a layout provides --------------------------------------------------------------------
    def check_seed(self, case: ShapeCase, seed: int, first: bool) -> CaseOutcome | SeedChecked:
        """One input seed of ``case``: a failure's outcome, or what passed. On the ``first`` seed also
        the determinism re-run, the costs, the speed floors and the baseline's cost."""
        raise NotImplementedError

    def build_case(self, case: ShapeCase) -> BuildResult:
        """The candidate built for ``case`` (raises :class:`BuildFailed`)."""
        raise NotImplementedError

    def case_strategy(self) -> Any:
        """The hypothesis strategy of this task's dynamic :class:`ShapeCase` values."""
        raise NotImplementedError

    def dynamic_enabled(self) -> bool:
        """Whether the task is checked on drawn cases too."""
        return self.spec.dynamic.enabled

    # -- shared ----------------------------------------------------------------------------------
    def input_seed(self, case: ShapeCase, index: int) -> int:
        """The seed of the ``index``-th input draw of ``case``: derived from the run's data seed, the case
        and its own base seed, so that neither the case nor its row number predicts the data. The seeds
        of one case are consecutive (hooks may vary their regime with ``seed % 3``)."""
        base = case_seed("inputs", self.options.data_seed, case.key(), case.seed) % 10**9
        return base * 1000 + index

    def where(self, case: ShapeCase, seed: int) -> str:
        """Where a failure happened, with what replays it (the run's data seed)."""
        return f"on {case.describe()} (input seed {seed}; data seed {self.options.data_seed})"

    def check(self, case: ShapeCase) -> CaseOutcome:
        """Every input seed of one shape case (at least ``spec.seeds``). Build failures raise
        :class:`BuildFailed`."""
        seeds = self.options.seeds or self.spec.seeds
        first: SeedChecked | None = None
        worst_abs = worst_rel = 0.0
        for s in range(seeds):
            checked = self.check_seed(case, self.input_seed(case, s), first=s == 0)
            if isinstance(checked, CaseOutcome):
                return checked
            worst_abs, worst_rel = max(worst_abs, checked.max_abs), max(worst_rel, checked.max_rel)
            if s == 0:
                first = checked
        self.shapes_checked += 1
        assert first is not None
        cost, base = first.cost, first.baseline
        return CaseOutcome(Status.PASSED, time_us=first.time_us, baseline_us=base.time_us if base else None,
                           case=case, max_abs=worst_abs, max_rel=worst_rel,
                           kernel_us=cost.kernel_us if cost else None,
                           baseline_kernel_us=base.kernel_us if base else None,
                           floor_reasons=tuple(f"{r} on {case.describe()}" for r in first.floors))

    def check_static(self) -> list[CaseOutcome]:
        """The spec's static cases, stopping at the first failure."""
        outcomes = []
        for case in static_cases(self.spec):
            outcome = self.check(case)
            outcomes.append(outcome)
            if outcome.status is not Status.PASSED:
                break
        if outcomes and all(o.status is Status.PASSED for o in outcomes):
            self._reach(Stage.MATCHED)
        return outcomes

    def count_static(self, outcomes: list[CaseOutcome]) -> tuple[int, int]:
        """(static cases passed, static cases) for upstream's case pass rate, after :meth:`check_static`
        returned ``outcomes``. When it stopped at a failure (not a timeout), the remaining cases are checked
        too; what they show never changes the sample's verdict, message, stage or ``shapes_checked``
        (a build failure or timeout there counts as a failed case; a timeout, or any error of the
        machinery, ends the count with the cases left counted as failed)."""
        cases = static_cases(self.spec)
        passed = sum(o.status is Status.PASSED for o in outcomes)
        if not outcomes or outcomes[-1].status is Status.PASSED or outcomes[-1].status is Status.TIMEOUT \
                or not self.options.case_score:
            return passed, len(cases)
        stage, checked = self.stage, self.shapes_checked
        try:
            for case in cases[len(outcomes):]:
                try:
                    status = self.check(case).status
                except BuildFailed:
                    continue
                except Exception:          # noqa: BLE001 - the count must never change the sample's verdict
                    break
                if status is Status.TIMEOUT:
                    break
                passed += status is Status.PASSED
        finally:
            self.stage, self.shapes_checked = stage, checked
        return passed, len(cases)

    def check_dynamic(self, examples: int | None = None, seed: int | None = None) -> CaseOutcome:
        """Hypothesis-drawn cases; a failure is shrunk to a minimal case and names the replay seed."""
        examples = self.options.shape_examples if examples is None else examples
        seed = self.options.shape_seed if seed is None else seed
        failures: dict[str, CaseOutcome | BuildFailed] = {}
        aborted: list[InfrastructureError] = []

        def probe(case: ShapeCase) -> str | None:
            if aborted:                      # our machinery failed: stop checking, raise it after the search
                return None
            try:
                outcome = self.check(case)
            except InfrastructureError as exc:   # not a property of the case: kept away from hypothesis
                aborted.append(exc)
                return None
            except BuildFailed as exc:
                failures[case.key()] = exc
                return "build failed"
            if outcome.status is Status.PASSED:
                return None
            failures[case.key()] = outcome
            return outcome.message

        found = search(self.case_strategy(), probe, examples, seed, self.options.shrink_budget,
                       storage_dir=self.options.scratch_dir)
        if aborted:
            raise aborted[0]
        if found.failure is None:
            return CaseOutcome(Status.PASSED)
        failed = failures[found.failure.key()]
        if isinstance(failed, BuildFailed):
            raise failed
        return replace(failed, message=f"{failed.message}; minimal failing dynamic case: "
                                       f"{found.failure.describe()}; replay with shape seed {seed} "
                                       f"(--shape-seed={seed}, {examples} examples)")
