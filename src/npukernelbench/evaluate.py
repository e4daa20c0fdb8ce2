"""The one pipeline: spec + completion + toolchain -> SampleResult (no pytest in here).

Used by the pytest plugin, by ``npukb evaluate``, and by dataset/training code (rewards,
preference pairs). Steps: extract files -> static checks -> build (per dtype binding, diagnostics
classified) -> for every shape case and >= ``spec.seeds`` seeds: fresh inputs, reference in this
process, candidate in a child process through the toolchain with fresh poisoned outputs -> inputs
unchanged, strict comparison, determinism (a second run with other poison must agree bit for bit)
-> speed against the expert solution on the same shapes (estimated on the simulator), kernel time
without the fixed launch overhead, checked against the harness's own floors (``speed_audit``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from npukernelbench.checks import check_sources
from npukernelbench.compare import compare_outputs, same_bits
from npukernelbench.diagnostics import classify
from npukernelbench.extract import ParseError, check_project, extract_files
from npukernelbench.generators.base import Completion
from npukernelbench.infrastructure import InfrastructureError, retry_once
from npukernelbench.reference_runner import Reference, reference_for
from npukernelbench.result import ErrorCategory, SampleResult, Stage, Status
from npukernelbench.shapes import ShapeCase, dynamic_enabled, search, static_cases
from npukernelbench.spec import TaskSpec
from npukernelbench.speed_audit import SUSPECT_SPEEDUP, RunCost, cost_of, floor_violations, traffic_of, verdict
from npukernelbench.toolchains.base import BuildResult, KernelProject, Launch, ParamSlot, TensorArg, Toolchain

if TYPE_CHECKING:
    from npukernelbench.public.checker import ModelChecker


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

    def __post_init__(self) -> None:
        if self.shapes not in ("static", "dynamic", "both"):
            raise ValueError(f"shapes must be static, dynamic or both, got {self.shapes!r}")


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

    def key(self, toolchain: Toolchain, spec: TaskSpec, case: ShapeCase, seed: int) -> tuple[str, ...]:
        return (toolchain.name, str(spec.folder), case.key(), str(seed))


def project_for(spec: TaskSpec, files: Mapping[str, str], dtypes: Mapping[str, str]) -> KernelProject:
    params = []
    for role, decls in (("input", spec.inputs), ("output", spec.outputs)):
        for d in decls:
            ptype = "DYNAMIC" if d.kind == "list" else "OPTIONAL" if d.optional else "REQUIRED"
            params.append(ParamSlot(d.name, role, ptype, dtypes[d.name]))
    return KernelProject(op=spec.op, kernel=spec.kernel, files=dict(files), params=tuple(params))


def _copy(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, list):
        return [np.array(v, copy=True) for v in value]
    return np.array(value, copy=True)


def _shape_of(value: Any) -> Any:
    if isinstance(value, list):
        return [tuple(np.shape(v)) for v in value]
    return tuple(np.shape(value))


class KernelChecker:
    """Runs one candidate project against the task's reference on given or drawn shapes.

    This is also the public ``npukb_checker`` fixture: ``KernelChecker(spec, toolchain, files)``
    then ``check(case)``, ``check_static()``, ``check_dynamic(examples, seed)``.
    """

    def __init__(self, spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str],
                 options: EvalOptions | None = None, baseline: BaselineCache | None = None,
                 reference: Reference | None = None):
        self.spec = spec
        self.toolchain = toolchain
        self.files = dict(files)
        self.options = options or EvalOptions()
        self.baseline = baseline if baseline is not None else BaselineCache()
        self.reference = reference or reference_for(spec)
        self.builds: dict[tuple[tuple[str, str], ...], BuildResult] = {}
        self.is_solution = spec.solution is not None and dict(spec.solution) == self.files
        self.shapes_checked = 0
        self.stage = Stage.COLLECTED

    def _reach(self, stage: Stage) -> None:
        order = Stage.order()
        if order.index(stage) > order.index(self.stage):
            self.stage = stage

    # -- building ---------------------------------------------------------------------------------
    def build(self, dtypes: Mapping[str, str]) -> BuildResult:
        """Build for one dtype binding (cached); raises :class:`BuildFailed` with the diagnostics."""
        key = tuple(sorted(dtypes.items()))
        if key not in self.builds:
            self.builds[key] = self.toolchain.build(project_for(self.spec, self.files, dtypes))
        result = self.builds[key]
        if not result.ok:
            raise BuildFailed(result)
        self._reach(Stage.KERNEL_BUILT)
        return result

    def build_case(self, case: ShapeCase) -> BuildResult:
        inputs = self.reference.make_inputs(case, case.seed)
        return self.build(self.reference.dtypes(case, inputs))

    # -- one run ---------------------------------------------------------------------------------
    def launch(self, case: ShapeCase, inputs: Mapping[str, Any], expected: Mapping[str, Any],
               dtypes: Mapping[str, str], poison_seed: int) -> Launch:
        ins = tuple(TensorArg(d.name, dtypes[d.name], data=_copy(inputs[d.name])) for d in self.spec.inputs)
        outs = tuple(TensorArg(d.name, dtypes[d.name], shape=_shape_of(expected[d.name]), alias=d.inplace)
                     for d in self.spec.outputs)
        attr_types = {a.name: a.type for a in self.spec.attrs}
        attrs = {name: (attr_types[name], value) for name, value in case.attrs.items() if name in attr_types}
        return Launch(inputs=ins, outputs=outs, attrs=attrs, timeout_s=self.options.run_timeout_s,
                      poison_seed=poison_seed)

    def _baseline_time(self, case: ShapeCase, seed: int, launch: Launch, dtypes: Mapping[str, str]) -> RunCost | None:
        if self.spec.solution is None or not self.options.speed:
            return None
        key = self.baseline.key(self.toolchain, self.spec, case, seed)
        if key in self.baseline.times:
            return self.baseline.times[key]
        bkey = (self.toolchain.name, str(self.spec.folder), *sorted(f"{k}={v}" for k, v in dtypes.items()))
        if bkey not in self.baseline.builds:
            self.baseline.builds[bkey] = self.toolchain.build(project_for(self.spec, self.spec.solution, dtypes))
        build = self.baseline.builds[bkey]
        t = None
        if build.ok:
            run = self.toolchain.run(build, launch)
            t = cost_of(run.time_us, run.details) if run.ok and run.time_us is not None else None
        self.baseline.times[key] = t
        return t

    def check(self, case: ShapeCase) -> CaseOutcome:
        """Every seed of one shape case. Build failures raise :class:`BuildFailed`."""
        seeds = self.options.seeds or self.spec.seeds
        time_us = None
        cost = base = None
        floors: tuple[str, ...] = ()
        worst_abs = worst_rel = 0.0
        for s in range(seeds):
            seed = case.seed * 1000 + s
            inputs = self.reference.make_inputs(case, seed)
            dtypes = self.reference.dtypes(case, inputs)
            expected = self.reference.expected(case, inputs)
            build = self.build(dtypes)
            launch = self.launch(case, inputs, expected, dtypes, poison_seed=seed)
            run = self.toolchain.run(build, launch)
            if "block_dim" in run.details:
                self._reach(Stage.TILING_RAN)
            if run.ok:
                self._reach(Stage.RAN_CLEANLY)
            where = f"on {case.describe()} (input seed {seed})"
            if run.timed_out:
                return CaseOutcome(Status.TIMEOUT, f"timed out after {self.options.run_timeout_s:g} s {where}: "
                                                   f"{run.message}".strip(), case=case)
            if not run.ok:
                return CaseOutcome(Status.RUNTIME_ERROR, f"{run.message or 'kernel run failed'} {where}", case=case)
            aliased = {d.inplace for d in self.spec.outputs if d.inplace}
            for d in self.spec.inputs:
                if d.name in aliased or d.name not in run.inputs_after or inputs[d.name] is None:
                    continue
                if not same_bits(run.inputs_after[d.name], inputs[d.name]):
                    return CaseOutcome(Status.WRONG, f"input '{d.name}' was modified by the kernel {where}; inputs "
                                                     "must be left unchanged", case=case)
            verdict = compare_outputs(self.spec, run.outputs, expected, dtypes)
            # A task's custom check can only reject: it never overrides a failed tolerance check.
            if verdict.ok and self.reference.custom_check(case, run.outputs, expected, dtypes) is False:
                verdict = replace(verdict, ok=False, message="the task's custom precision check failed")
            if not verdict.ok:
                return CaseOutcome(Status.WRONG, f"{verdict.message} {where}", case=case, max_abs=verdict.max_abs,
                                   max_rel=verdict.max_rel)
            worst_abs, worst_rel = max(worst_abs, verdict.max_abs), max(worst_rel, verdict.max_rel)
            if s == 0:
                if self.options.determinism:
                    again = self.toolchain.run(build, replace(launch, poison_seed=seed + 7919))
                    if not again.ok:
                        status = Status.TIMEOUT if again.timed_out else Status.RUNTIME_ERROR
                        return CaseOutcome(status, f"a second run on the same inputs with other poison in fresh "
                                                   f"buffers failed {where}: {again.message}", case=case)
                    if any(not same_bits(run.outputs[n], again.outputs.get(n)) for n in run.outputs):
                        return CaseOutcome(Status.WRONG, f"nondeterministic: a second run on the same inputs with "
                                                         f"other poison in fresh buffers gave different bits {where} "
                                                         "(uninitialised reads or races)", case=case)
                time_us = run.time_us
                if time_us is not None:
                    cost = cost_of(time_us, run.details)
                    sent = {a.name: a.data for a in launch.inputs}
                    floors = floor_violations(traffic_of(self.spec, sent, run.outputs), cost)
                if self.is_solution and self.options.speed and cost is not None:
                    self.baseline.times.setdefault(self.baseline.key(self.toolchain, self.spec, case, seed), cost)
                base = self._baseline_time(case, seed, launch, dtypes) if cost is not None else None
        self.shapes_checked += 1
        return CaseOutcome(Status.PASSED, time_us=time_us, baseline_us=base.time_us if base else None, case=case,
                           max_abs=worst_abs, max_rel=worst_rel, kernel_us=cost.kernel_us if cost else None,
                           baseline_kernel_us=base.kernel_us if base else None,
                           floor_reasons=tuple(f"{r} on {case.describe()}" for r in floors))

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

    def check_dynamic(self, examples: int | None = None, seed: int | None = None) -> CaseOutcome:
        """Hypothesis-drawn shapes; a failure is shrunk to a minimal case and names the replay seed."""
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

        found = search(self.spec, probe, examples, seed, self.options.shrink_budget,
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


def _build_result(spec: TaskSpec, sample: int, exc: BuildFailed, **common: Any) -> SampleResult:
    build = exc.build
    category = build.error_category or classify(build.diagnostics)
    if build.timed_out:
        return SampleResult(spec.case_id, spec.level, spec.category, sample, Status.BUILD_ERROR,
                            ErrorCategory.OTHER, "build timed out", **common)
    first = build.diagnostics.strip().splitlines()
    head = next((ln for ln in first if "error" in ln), first[0] if first else "build failed")
    return SampleResult(spec.case_id, spec.level, spec.category, sample, Status.BUILD_ERROR, category,
                        f"[{category.value}] {head.strip()}", details={"diagnostics": build.diagnostics}, **common)


def files_of(spec: TaskSpec, completion: Completion) -> dict[str, str]:
    """The completion's project files (raises ParseError)."""
    if completion.files is not None:
        files = dict(completion.files)
        check_project(files, spec.required_files())
        return files
    return extract_files(completion.text or "", spec.required_files())


def evaluate(spec: TaskSpec, completion: Completion, toolchain: Toolchain, options: EvalOptions | None = None,
             baseline: BaselineCache | None = None) -> SampleResult:
    """Evaluate one sample. Never raises for anything the candidate does. A failure of our own
    machinery is retried once and, when it persists, raises
    :class:`~npukernelbench.infrastructure.InfrastructureError`: the sample then has no outcome,
    and callers using results as rewards or labels must skip it. A broken reference (a bug in the
    case) raises ``reference_runner.ReferenceError_``."""
    return retry_once(lambda: _evaluate_once(spec, completion, toolchain, options, baseline))


def _evaluate_once(spec: TaskSpec, completion: Completion, toolchain: Toolchain, options: EvalOptions | None,
                   baseline: BaselineCache | None) -> SampleResult:
    options = options or EvalOptions()
    start = time.monotonic()
    sample = completion.sample

    def result(status: Status, message: str = "", **kw: Any) -> SampleResult:
        return SampleResult(spec.case_id, spec.level, spec.category, sample, status, message=message,
                            tokens=completion.tokens, seconds=round(time.monotonic() - start, 3), **kw)

    try:
        files = files_of(spec, completion)
    except ParseError as exc:
        return result(Status.PARSE_ERROR, str(exc), stage=Stage.COLLECTED)
    allowlist = getattr(toolchain, "include_allowlist", None)    # None: the simulator's headers
    finding = check_sources(files, allowlist() if callable(allowlist) else None)
    if finding is not None:
        return result(Status.REJECTED, str(finding), details={"rule": finding.rule}, stage=Stage.COLLECTED)
    checker: KernelChecker | ModelChecker
    if spec.layout == "npukernelbench":
        from npukernelbench.public.checker import ModelChecker

        checker = ModelChecker(spec, toolchain, files, options, baseline)
    else:
        checker = KernelChecker(spec, toolchain, files, options, baseline)
    outcomes: list[CaseOutcome] = []
    dynamic = dynamic_enabled(spec) and options.shape_examples > 0 and isinstance(checker, KernelChecker)
    try:
        if options.shapes in ("static", "both") or spec.layout == "npukernelbench" or not dynamic:
            outcomes = checker.check_static()     # never pass a sample that nothing checked
        if (not outcomes or outcomes[-1].status is Status.PASSED) and options.shapes in ("dynamic", "both") \
                and dynamic:
            outcomes.append(checker.check_dynamic())
    except BuildFailed as exc:
        return _build_result(spec, sample, exc, tokens=completion.tokens,
                             seconds=round(time.monotonic() - start, 3), stage=checker.stage)
    failed = next((o for o in outcomes if o.status is not Status.PASSED), None)
    details: dict[str, Any] = {}
    if failed is not None:
        if failed.case is not None:
            details["case"] = failed.case.describe()
        return result(failed.status, failed.message, shapes_checked=checker.shapes_checked, details=details,
                      stage=checker.stage)
    timed = [o for o in outcomes if o.kernel_us is not None and o.baseline_kernel_us is not None]
    time_us = sum(o.time_us for o in outcomes if o.time_us is not None) or None
    baseline_us = sum(o.baseline_us for o in timed if o.baseline_us is not None) if timed else None
    floors = [r for o in outcomes for r in o.floor_reasons]
    judged = verdict([o.kernel_us for o in timed if o.kernel_us is not None],
                     [o.baseline_kernel_us for o in timed if o.baseline_kernel_us is not None], floors,
                     options.suspect_speedup)
    details["max_abs_error"] = max((o.max_abs for o in outcomes), default=0.0)
    details["max_rel_error"] = max((o.max_rel for o in outcomes), default=0.0)
    if time_us is not None:
        details["kernel_time_us"] = round(sum(o.kernel_us for o in outcomes if o.kernel_us is not None), 6)
        details["launch_overhead_us"] = round(time_us - details["kernel_time_us"], 6)
    if timed:
        details["baseline_kernel_time_us"] = round(sum(o.baseline_kernel_us for o in timed
                                                       if o.baseline_kernel_us is not None), 6)
    if judged.reasons:
        details["suspect_reasons"] = list(judged.reasons)
    message = f"suspect: {'; '.join(judged.reasons)}" if judged.suspect else ""
    return result(Status.PASSED, message, time_us=time_us, baseline_time_us=baseline_us, speedup=judged.speedup,
                  speed_kind=toolchain.speed_kind if time_us is not None else None, suspect=judged.suspect,
                  shapes_checked=checker.shapes_checked, details=details, stage=checker.stage)
