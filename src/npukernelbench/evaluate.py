"""The one pipeline: spec + completion + toolchain -> SampleResult (no pytest in here).

Used by the pytest plugin, by ``npukb evaluate``, and by dataset/training code (rewards,
preference pairs). Steps: extract files -> static checks (against the toolchain's headers, as its
preprocessor sees the code) -> the checker of the task's layout (``npukernelbench.layouts``): build
(per dtype binding, diagnostics classified) -> for every shape case and >= ``spec.seeds`` seeds: fresh
inputs, reference in this process, candidate in a child process through the toolchain with fresh
poisoned outputs -> inputs unchanged, strict comparison, determinism (a second run with other poison
must agree bit for bit) -> speed against the expert solution on the same shapes (estimated on the
simulator), kernel time without the fixed launch overhead, checked against the harness's own floors
(``speed_audit``).
"""

from __future__ import annotations

import dataclasses
import resource
import time
from collections.abc import Mapping
from typing import Any

from npukernelbench.checker import BaselineCache, BuildFailed, CaseOutcome, Checker, EvalOptions
from npukernelbench.checks import check_sources
from npukernelbench.diagnostics import classify
from npukernelbench.extract import ParseError, check_project, extract_files
from npukernelbench.generators.base import Completion
from npukernelbench.infrastructure import retry_once
from npukernelbench.layouts import layout_of
from npukernelbench.modes import task_soc
from npukernelbench.phase_clock import PhaseClock, timed
from npukernelbench.result import ErrorCategory, SampleResult, Stage, Status
from npukernelbench.soc_profiles import DEFAULT_SOC
from npukernelbench.spec import TaskSpec
from npukernelbench.speed_audit import verdict
from npukernelbench.toolchains.base import Toolchain

__all__ = ["BaselineCache", "BuildFailed", "CaseOutcome", "Checker", "EvalOptions", "checker_for", "evaluate",
           "files_of"]


def checker_for(spec: TaskSpec, toolchain: Toolchain, files: Mapping[str, str], options: EvalOptions | None = None,
                baseline: BaselineCache | None = None) -> Checker:
    """The checker of ``spec``'s layout for the candidate project ``files``."""
    return layout_of(spec).checker(spec, toolchain, files, options, baseline)


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


def static_checked(spec: TaskSpec, options: EvalOptions, checker: Checker | None) -> bool:
    """Whether a sample of ``spec`` is (or would have been) checked on the static cases under ``options``."""
    if options.shapes in ("static", "both"):
        return True
    dynamic = checker.dynamic_enabled() if checker is not None else spec.dynamic.enabled
    return not (dynamic and options.shape_examples > 0)


def _benchmark_details(benchmark: str | None, checker: Checker | None) -> dict[str, Any]:
    """What a layout scored by another benchmark adds to every result: the benchmark's name, and what its
    checker noted (``result_details``: how the inputs were scaled, how the speed was estimated)."""
    extra = dict(getattr(checker, "result_details", None) or {})
    if benchmark:
        extra["benchmark"] = benchmark
    return extra


def files_of(spec: TaskSpec, completion: Completion) -> dict[str, str]:
    """The completion's project files (raises ParseError)."""
    from npukernelbench.modes import PROJECT, mode_of

    if mode_of(spec) != PROJECT:
        from npukernelbench import upstream_extract

        return upstream_extract.files_of(spec, completion.text, completion.files)
    if completion.files is not None:
        files = dict(completion.files)
        check_project(files, spec.required_files())
        return files
    parse = getattr(layout_of(spec), "parse_answer", None)     # a layout with its own answer format
    if parse is not None:
        return parse(spec, completion.text or "")
    return extract_files(completion.text or "", spec.required_files())


def evaluate(spec: TaskSpec, completion: Completion, toolchain: Toolchain, options: EvalOptions | None = None,
             baseline: BaselineCache | None = None) -> SampleResult:
    """Evaluate one sample. Never raises for anything the candidate does. A failure of our own
    machinery is retried once and, when it persists, raises
    :class:`~npukernelbench.infrastructure.InfrastructureError`: the sample then has no outcome,
    and callers using results as rewards or labels must skip it. A broken reference (a bug in the
    case) raises ``module_loader.CaseReferenceError``."""
    return retry_once(lambda: _evaluate_once(spec, completion, toolchain, options, baseline))


def _evaluate_once(spec: TaskSpec, completion: Completion, toolchain: Toolchain, options: EvalOptions | None,
                   baseline: BaselineCache | None) -> SampleResult:
    options = options or EvalOptions()
    if not options.profile:
        return _evaluate_timed(spec, completion, toolchain, options, baseline, PhaseClock())
    clock = PhaseClock()
    result = _evaluate_timed(spec, completion, timed(toolchain, clock), options, baseline, clock)
    clock.peak("worker_peak_rss_kb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    profile = clock.to_json()
    profile["total_seconds"] = result.seconds
    return dataclasses.replace(result, details={**result.details, "phases": profile})


def _evaluate_timed(spec: TaskSpec, completion: Completion, toolchain: Toolchain, options: EvalOptions,
                    baseline: BaselineCache | None, clock: PhaseClock) -> SampleResult:
    start = time.monotonic()
    sample = completion.sample

    benchmark = getattr(layout_of(spec), "benchmark", None)      # a layout scored by another benchmark too
    checker: Checker | None = None

    soc = task_soc(spec, options.soc) or DEFAULT_SOC
    cases = {"passed": 0, "total": len(spec.cases)}     # upstream's case pass rate (upstream_score.py)

    def result(status: Status, message: str = "", **kw: Any) -> SampleResult:
        extra = _benchmark_details(benchmark, checker)
        kw["details"] = {**kw.get("details", {}), **extra, "soc": soc}
        if static_checked(spec, options, checker):
            kw["details"]["cases"] = dict(cases)
        return SampleResult(spec.case_id, spec.level, spec.category, sample, status, message=message,
                            tokens=completion.tokens, seconds=round(time.monotonic() - start, 3), **kw)

    try:
        files = files_of(spec, completion)
    except ParseError as exc:
        return result(Status.PARSE_ERROR, str(exc), stage=Stage.COLLECTED)
    with clock("static_checks"):
        finding = check_sources(files, toolchain.include_allowlist(), toolchain.preprocessing())
    if finding is not None:
        return result(Status.REJECTED, str(finding), details={"rule": finding.rule}, stage=Stage.COLLECTED)
    checker = checker_for(spec, toolchain, files, options, baseline)
    checker.clock = clock
    outcomes: list[CaseOutcome] = []
    dynamic = checker.dynamic_enabled() and options.shape_examples > 0
    try:
        if options.shapes in ("static", "both") or not dynamic:
            outcomes = checker.check_static()     # never pass a sample that nothing checked
        if (not outcomes or outcomes[-1].status is Status.PASSED) and options.shapes in ("dynamic", "both") \
                and dynamic:
            outcomes.append(checker.check_dynamic())
    except BuildFailed as exc:
        failed_build = _build_result(spec, sample, exc, tokens=completion.tokens,
                                     seconds=round(time.monotonic() - start, 3), stage=checker.stage)
        extra = {**_benchmark_details(benchmark, checker), "soc": soc}
        if static_checked(spec, options, checker):
            extra["cases"] = dict(cases)          # upstream builds one project: a build error fails every row
        return dataclasses.replace(failed_build, details={**failed_build.details, **extra})
    if options.shapes in ("static", "both") or not dynamic:
        cases["passed"], cases["total"] = checker.count_static(outcomes[:len(spec.cases)])
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
