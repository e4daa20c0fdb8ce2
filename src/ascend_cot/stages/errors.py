"""Error-derived supervision (paper section 4.2.1), from model runs or mutants of expert solutions.

- API level (``api_debug``): build errors, clustered by a normalised diagnostic signature; for a few
  members of each cluster the teacher gets the project, the compiler output and BM25-retrieved
  documentation, diagnoses and fixes. The fix is kept only if it builds and passes the case.
- Kernel level (``kernel_debug``): kernels that build but are wrong, paired with the verified
  expert solution; the teacher writes the reasoning that reconstructs a correct kernel from the
  failing one. Kept only if the reconstructed kernel passes.

Inputs: :func:`failures_from_run` (an ``npukb`` run directory), :func:`failures_from_mutants`, or
any list of :class:`FailingSample` (e.g. from training-time rollouts); :func:`debug_cot` turns them
into samples. ``run(ctx)`` is the build stage; :func:`error_cot` is the same from Python.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_cot import prompts
from ascend_cot.context import StageContext, StageResult
from ascend_cot.projects import load_cases
from ascend_cot.sample import Drop, Sample, Verified, chat
from ascend_cot.teacher import Ask
from ascend_cot.teacher_output import MalformedOutput, drop_reason, reasoning_only, strip_think
from ascend_cot.verification import project_files

STAGE = "errors"
BUILD_FAILURES = ("build_error",)
WRONG_FAILURES = ("wrong", "runtime_error")


@dataclass(frozen=True)
class FailingSample:
    """One failing candidate: the task, its files and what went wrong."""

    spec: Any                           # the TaskSpec
    files: Mapping[str, str]
    status: str                         # npukernelbench status: build_error, wrong, runtime_error, ...
    message: str = ""
    diagnostics: str = ""               # compiler output (build errors)
    origin: str = ""                    # where it came from (run dir + sample, mutant + label)
    meta: Mapping[str, Any] = field(default_factory=dict)


_LOCATION = re.compile(r"(?:[\w./-]+\.(?:cpp|h|hpp|cc|inc))?:\d+(?::\d+)?:?")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|‘[^’]*’")
_NUMBER = re.compile(r"\b\d+\b")


def signature(diagnostics: str, message: str = "") -> str:
    """A normalised signature of the first compiler error: file/line positions, quoted names and
    numbers replaced, prefixed by the error class. Errors that differ only in names cluster together."""
    from npukernelbench.diagnostics import classify, parse

    parsed = parse(diagnostics or "")
    first = parsed[0].message if parsed else next(
        (ln for ln in (diagnostics or message).splitlines() if "error" in ln), message or "unknown")
    text = _LOCATION.sub("", first)
    text = _QUOTED.sub("'_'", text)
    text = _NUMBER.sub("N", text)
    text = " ".join(text.replace("error:", "").split())
    return f"{classify(diagnostics or message).value}: {text}"


def failures_from_run(run_dir: Path, case_paths: Sequence[Path]) -> list[FailingSample]:
    """Failing samples of an ``npukb`` run directory (results.jsonl + completions.jsonl); task ids
    resolve against ``case_paths``."""
    from npukernelbench.evaluate import files_of
    from npukernelbench.extract import ParseError
    from npukernelbench.store import RunDir, StoreError

    run = RunDir(Path(run_dir))
    try:
        results = run.results()
        completions = run.completions()
    except StoreError as exc:
        raise ValueError(f"run directory {run_dir}: {exc}") from None
    if not results:
        raise ValueError(f"run directory {run_dir} has no results.jsonl lines")
    specs = {s.case_id: s for s in load_cases(case_paths)}
    out = []
    for r in sorted(results, key=lambda r: (r.task, r.sample)):
        if r.status.value not in BUILD_FAILURES + WRONG_FAILURES:
            continue
        spec = specs.get(r.task)
        completion = completions.get((r.task, r.sample))
        if spec is None or completion is None:
            continue
        try:
            files = files_of(spec, completion)
        except ParseError:
            continue
        out.append(FailingSample(spec, files, r.status.value, r.message, str(r.details.get("diagnostics", "")),
                                 f"run:{Path(run_dir).name}/{r.task}#{r.sample}"))
    return out


def failures_from_mutants(specs: Sequence[Any], samples: int, seed: int, ctx: StageContext) -> list[FailingSample]:
    """Seeded mutants of the expert solutions (the benchmark's ``mutants`` model), evaluated; the
    failing ones."""
    from npukernelbench.generators import get_generator
    from npukernelbench.generators.base import GenerationRequest, GeneratorOptions, SamplingParams

    specs = [s for s in specs if s.solution]
    generator = get_generator("mutants", GeneratorOptions(seed=seed, progress=False))
    batches = generator.generate([GenerationRequest(s, (), SamplingParams(n=samples)) for s in specs])
    out = []
    jobs = [(spec, c) for spec, batch in zip(specs, batches, strict=True) for c in batch]
    for spec, completion in ctx.bar(jobs, "errors: evaluate mutants"):
        if completion.files is None:
            continue
        check = ctx.verifier.verify_case(spec, completion.files)
        if check.verified is Verified.PASSED:
            continue
        out.append(FailingSample(spec, dict(completion.files), check.status, check.message, check.diagnostics,
                                 f"mutant:{spec.case_id}#{completion.sample}", dict(completion.meta)))
    return out


def _merged(original: Mapping[str, str], answer: str) -> dict[str, str] | None:
    files = project_files(answer)
    if files is None:
        from npukernelbench.extract import ParseError, extract_files

        try:
            files = extract_files(answer, (), complete=False)     # a fix may restate only what it changes
        except ParseError:
            return None
    return {**dict(original), **files}


def debug_cot(failures: Sequence[FailingSample], ctx: StageContext) -> StageResult:
    cfg = ctx.config.stages.errors
    result = StageResult()
    builds = [f for f in failures if f.status in BUILD_FAILURES]
    wrongs = [f for f in failures if f.status in WRONG_FAILURES]
    jobs: list[tuple[str, FailingSample, Ask, str]] = []
    if cfg.api_debug:
        clusters: OrderedDict[str, list[FailingSample]] = OrderedDict()
        for f in builds:
            clusters.setdefault(signature(f.diagnostics, f.message), []).append(f)
        chosen = list(clusters.items())[:cfg.max_clusters or None]
        for sig, members in chosen:
            for f in members[:cfg.per_cluster]:
                docs = ctx.index().search(f"{sig}\n{f.diagnostics[:600]}", cfg.docs_k) if cfg.docs_k else []
                ask = Ask(f"errors.api:{f.origin}", prompts.api_debug(f.spec.description.strip(), f.files,
                                                                      f.diagnostics or f.message, docs))
                jobs.append(("api_debug", f, ask, f.diagnostics or f.message))
            for f in members[cfg.per_cluster:]:
                result.drops.append(Drop(STAGE, "api_debug", "cluster_quota", f.origin, f.spec.case_id,
                                         f"signature already covered: {sig}"[:200]))
        for sig, members in list(clusters.items())[len(chosen):]:
            for f in members:
                result.drops.append(Drop(STAGE, "api_debug", "cluster_quota", f.origin, f.spec.case_id,
                                         f"max_clusters reached: {sig}"[:200]))
    if cfg.kernel_debug:
        for f in wrongs[:cfg.max_kernel_debug or None]:
            solution = dict(f.spec.solution or {})
            if not solution or ctx.verifier.verify_case(f.spec, solution).verified is not Verified.PASSED:
                result.drops.append(Drop(STAGE, "kernel_debug", "no_verified_solution", f.origin, f.spec.case_id,
                                         "the task has no expert solution that passes"))
                continue
            ask = Ask(f"errors.kernel:{f.origin}", prompts.kernel_debug(f.spec.description.strip(), f.files,
                                                                        f.message, solution))
            jobs.append(("kernel_debug", f, ask, f.message))
    replies = ctx.teacher.ask([job[2] for job in jobs])
    for (source, f, ask, evidence), reply in ctx.bar(list(zip(jobs, replies, strict=True)), "errors: verify fixes"):
        try:
            reasoning = reasoning_only(reply.text)
        except MalformedOutput as exc:
            result.drops.append(Drop(STAGE, source, drop_reason(reply.text), f.origin, f.spec.case_id, str(exc),
                                     reply.text))
            continue
        fixed = _merged(f.files, strip_think(reply.text))
        if fixed is None:
            result.drops.append(Drop(STAGE, source, drop_reason(reply.text), f.origin, f.spec.case_id,
                                     "no fixed project files after the reasoning", reply.text))
            continue
        if fixed == dict(f.files):
            result.drops.append(Drop(STAGE, source, "fix_unchanged", f.origin, f.spec.case_id,
                                     "the answer repeats the failing project", reply.text))
            continue
        verification = ctx.verifier.verify_case(f.spec, fixed)
        from npukernelbench.extract import render_files

        kind = "api" if source == "api_debug" else "kernel"
        user = prompts.debug_student(f.spec.description.strip(), f.files, evidence, kind)
        result.samples.append(Sample(chat(None, user, reasoning, render_files(fixed)), source, f.origin,
                                     f.spec.case_id, verification.verified, ctx.provenance([ask.messages]),
                                     verification.message))
    return result


def collect_failures(ctx: StageContext) -> list[FailingSample]:
    cfg = ctx.config.stages.errors
    failures: list[FailingSample] = []
    for run_dir in cfg.runs:
        failures += failures_from_run(run_dir, cfg.cases)
    if cfg.mutants.cases:
        failures += failures_from_mutants(load_cases(cfg.mutants.cases), cfg.mutants.samples, cfg.mutants.seed, ctx)
    return failures


def run(ctx: StageContext) -> StageResult:
    return debug_cot(collect_failures(ctx), ctx)


def error_cot(failures: Sequence[FailingSample] | Path | str, teacher: str, out: Path | str,
              cases: Sequence[Path | str] = (), docs: Sequence[Path | str] = (), progress: bool = False,
              **errors_options: Any) -> StageResult:
    """Error-derived samples from Python: ``failures`` is a list of :class:`FailingSample` or an
    ``npukb`` run directory (whose task ids resolve against ``cases``); ``teacher`` a model spec;
    ``docs`` documentation folders for retrieval; ``out`` holds the teacher's responses and caches.
    ``errors_options`` are ``stages.errors`` settings (``per_cluster=2``, ``kernel_debug=False``, ...)."""
    import dataclasses

    from ascend_cot.config import BuildConfig, DocsConfig, ErrorsConfig, StagesConfig, TeacherConfig

    errors = dataclasses.replace(ErrorsConfig(), cases=tuple(Path(c) for c in cases), **errors_options)
    stages = StagesConfig(docs=DocsConfig(enabled=False, paths=tuple(Path(d) for d in docs)), errors=errors)
    config = BuildConfig(teacher=TeacherConfig(model=teacher), stages=stages)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ctx = StageContext(config, out, progress)
    try:
        if isinstance(failures, str | Path):
            failures = failures_from_run(Path(failures), errors.cases)
        return debug_cot(list(failures), ctx)
    finally:
        ctx.close()
