"""Rollouts: sample candidates for benchmark tasks with any of the benchmark's generators and grade
them with its one pipeline (``npukernelbench.evaluate``), into an ``npukb`` run directory.

The same code measures a model (greedy, one sample: CR and ER), feeds the evaluation callback, and
samples preference candidates. Generation goes through the benchmark's generator registry and
completion cache (vLLM when installed, transformers, OpenAI-compatible servers, replay files), so
seeds and caching behave exactly as in ``npukb evaluate``; the run directory can be reported with
``npukb report`` and mined for pairs. A sample whose evaluation fails in our own machinery (the
infrastructure error of ``npukernelbench``) or on a broken case gets no result line: it is counted
in ``no_outcome`` and is neither a success nor a failure of the model.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npukernelbench.result import SampleResult


@dataclass(frozen=True)
class RolloutSettings:
    model: str                       # a benchmark model spec
    samples: int = 1
    temperature: float = 0.0
    top_p: float = 0.95
    max_tokens: int = 4096
    seed: int = 0
    lora: str | None = None
    project_level: bool = False
    toolchain: str = "ascendc-sim"
    shapes: str = "static"
    shape_examples: int = 4
    seeds: int = 0                   # input seeds per shape; 0: the case's own
    speed: bool = False              # rewards need correctness only
    resume: bool = False


@dataclass
class Rollout:
    run_dir: Path
    results: list[SampleResult]
    no_outcome: list[dict[str, Any]] = field(default_factory=list)   # {"task", "sample", "cause"}

    def rates(self, samples: int) -> dict[str, float]:
        """CR and ER (pass@1 over the samples) of the graded results."""
        from npukernelbench.metrics import level_summary

        summary = level_summary(self.results, samples)
        return {"cr": summary["cr"].get("pass@1", 0.0), "er": summary["er"].get("pass@1", 0.0)}


def _infrastructure_errors() -> tuple[type[BaseException], ...]:
    """Exceptions that mean "no outcome": our machinery failed, or the case itself is broken."""
    from npukernelbench.reference_runner import CaseReferenceError

    errors: list[type[BaseException]] = [CaseReferenceError]
    try:
        from npukernelbench.infrastructure import InfrastructureError
    except ImportError:       # a benchmark version without the explicit infrastructure outcome
        pass
    else:
        errors.append(InfrastructureError)
    return tuple(errors)


def roll_out(specs: Sequence[Any], settings: RolloutSettings, run_dir: Path, log: Any = None,
             run_options: Any = None) -> Rollout:
    """Generate ``settings.samples`` candidates per task, evaluate each, write ``run_dir``.
    ``run_options`` is a :class:`~npukernelbench.options.RunOptions` (or subclass) whose generator
    options are used; the other fields come from ``settings``."""
    import dataclasses

    from npukernelbench.evaluate import BaselineCache, EvalOptions, evaluate
    from npukernelbench.generation import ensure_completions
    from npukernelbench.options import RunOptions, load_toolchain
    from npukernelbench.store import RunDir

    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    toolchain = load_toolchain(settings.toolchain)
    reason = toolchain.unavailable_reason()
    if reason:
        raise RuntimeError(f"toolchain {settings.toolchain!r} cannot run here: {reason}")
    options = dataclasses.replace(run_options or RunOptions(), model=settings.model, samples=settings.samples,
                                  toolchain=settings.toolchain, shapes=settings.shapes,
                                  shape_examples=settings.shape_examples, out=Path(run_dir), resume=settings.resume,
                                  temperature=settings.temperature, top_p=settings.top_p,
                                  max_tokens=settings.max_tokens, seed=settings.seed, lora=settings.lora,
                                  project_level=settings.project_level)
    run = RunDir(Path(run_dir))
    run.create(fresh=not settings.resume)
    run.write_header({"model": settings.model, "lora": settings.lora, "toolchain": settings.toolchain,
                      "samples_per_task": settings.samples, "shapes": settings.shapes,
                      "shape_examples": settings.shape_examples, "seed": settings.seed,
                      "temperature": settings.temperature, "top_p": settings.top_p,
                      "max_tokens": settings.max_tokens, "project_level": settings.project_level})
    completions = ensure_completions(list(specs), options, run)
    done = run.finished() if settings.resume else set()
    eval_options = EvalOptions(shapes=settings.shapes, shape_examples=settings.shape_examples,
                               shape_seed=settings.seed, seeds=settings.seeds or None, speed=settings.speed,
                               scratch_dir=Path(run_dir) / "scratch", case_score=False)
    baseline = BaselineCache()
    no_outcome = []
    skip = _infrastructure_errors()
    for spec in specs:
        for i in range(settings.samples):
            if (spec.case_id, i) in done:
                continue
            try:
                result = evaluate(spec, completions[(spec.case_id, i)], toolchain, eval_options, baseline)
            except skip as exc:
                no_outcome.append({"task": spec.case_id, "sample": i, "cause": f"{type(exc).__name__}: {exc}"})
                log(f"{spec.case_id}[s{i}] NO OUTCOME ({type(exc).__name__}: {exc}); not counted")
                continue
            run.append_result(result)
            log(f"{spec.case_id}[s{i}] {result.status.value}")
    wanted = {s.case_id for s in specs}
    results = [r for r in run.results() if r.task in wanted and r.sample < settings.samples]
    return Rollout(Path(run_dir), results, no_outcome)
