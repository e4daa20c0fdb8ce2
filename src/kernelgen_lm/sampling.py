"""``kernelgen-lm sample``: preference data from executions.

For each task of the training split, ``samples`` candidates come from any generator the benchmark
has (a local directory through vLLM when installed or transformers, an OpenAI-compatible server or
a pool behind one URL, a replay file), with the benchmark's prompt, seeds and completion cache. Each
is graded by the benchmark's pipeline into ``OUT/run`` (an ``npukb`` run directory: completions,
results, ``npukb report`` works on it), then paired by class (:mod:`kernelgen_lm.pairs`) into
``OUT/pairs`` (a ``datasets`` folder, plus ``OUT/pairs.jsonl``) and ``OUT/pairs_stats.json``.

Tasks of the evaluation split (``eval_tasks`` globs plus a stable ``eval_share``) are left out unless
``include_eval_tasks``. Rerunning with ``resume`` (default) reuses every finished completion and
result: a killed run loses nothing.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kernelgen_lm.config import SampleSettings
from npukernelbench.generators.base import GeneratorOptions
from npukernelbench.options import RunOptions


@dataclass(frozen=True)
class EngineRunOptions(RunOptions):
    """RunOptions whose generators also get the server settings (timeout, concurrency, retries) and
    the vLLM engine settings (``extra``: tensor_parallel_size, ...)."""

    timeout: float = 600.0
    concurrency: int = 8
    max_retries: int = 5
    engine: Mapping[str, Any] = field(default_factory=dict)

    def generator_options(self) -> GeneratorOptions:
        return GeneratorOptions(lora=self.lora, seed=self.seed, timeout=self.timeout, concurrency=self.concurrency,
                                max_retries=self.max_retries, cpu_threads=self.cpu_threads, extra=dict(self.engine))


@dataclass
class SampleOutcome:
    out: Path
    pairs_dir: Path
    pairs: int
    stats: dict[str, Any]
    tasks: list[str] = field(default_factory=list)
    excluded_eval_tasks: list[str] = field(default_factory=list)


def check_reachable(model: str, timeout: float) -> None:
    """A server model spec must answer before any work starts (one quick try, clear message)."""
    from npukernelbench.generators import resolve

    backend, _ = resolve(model)
    if backend != "openai":
        return
    from npukernelbench.generators.openai_client import OpenAIGenerator, ServerError

    probe = OpenAIGenerator(model, GeneratorOptions(max_retries=0, timeout=min(timeout, 30.0), progress=False))
    try:
        probe.call("GET", "/models")
    except ServerError as exc:
        raise ValueError(f"model {model}: server unreachable: {exc}") from None


def run_sample(settings: SampleSettings, log: Any = None) -> SampleOutcome:
    from kernelgen_lm.eval_progress import CountedLog
    from kernelgen_lm.pairs import no_pairs_advice, pairs_from_run, write_pairs
    from kernelgen_lm.rollouts import RolloutSettings, roll_out
    from kernelgen_lm.tasks import select_tasks, training_split

    log = log or (lambda line: print(line, file=sys.stderr, flush=True))
    specs = select_tasks(settings.cases, settings.tasks)
    train, held = training_split(specs, settings.eval_tasks, settings.eval_share)
    if settings.include_eval_tasks:
        train, held = specs, []
    if not train:
        raise ValueError(f"every selected task ({len(specs)}) is in the evaluation split; set include_eval_tasks: "
                         "true, lower eval_share or change tasks")
    check_reachable(settings.model, settings.timeout)
    out = Path(settings.out)  # type: ignore[arg-type]
    out.mkdir(parents=True, exist_ok=True)
    log(f"kernelgen-lm sample: {settings.model}: {len(train)} task(s) x {settings.samples} sample(s) at temperature "
        f"{settings.temperature:g}; {len(held)} evaluation task(s) left out")
    rollout_settings = RolloutSettings(
        model=settings.model, samples=settings.samples, temperature=settings.temperature, top_p=settings.top_p,
        max_tokens=settings.max_tokens, seed=settings.seed, lora=str(settings.lora) if settings.lora else None,
        project_level=settings.project_level, toolchain=settings.toolchain, shapes=settings.shapes,
        shape_examples=settings.shape_examples, seeds=settings.seeds, resume=settings.resume)
    runner = EngineRunOptions(timeout=settings.timeout, concurrency=settings.concurrency,
                              max_retries=settings.max_retries, engine=dict(settings.engine),
                              cpu_threads=settings.cpu_threads)
    already = len(_finished(out / "run", train, settings.samples)) if settings.resume else 0
    counted = CountedLog(log, len(train) * settings.samples, already)
    rollout = roll_out(train, rollout_settings, out / "run", log=counted, run_options=runner)
    pairs, stats = pairs_from_run(out / "run", train, settings.policy, settings.max_pairs_per_task, settings.seed,
                                  project_level=settings.project_level)
    stats.no_outcome = len(rollout.no_outcome)
    pairs_dir = write_pairs(out / "pairs", pairs)
    document = {**stats.to_json(), "policy": settings.policy, "model": settings.model,
                "no_outcome_samples": rollout.no_outcome, "evaluation_tasks_left_out": [s.case_id for s in held],
                **rollout.rates(settings.samples)}
    (out / "pairs_stats.json").write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    log(f"kernelgen-lm sample: {stats.pairs} pair(s) from {stats.candidates} graded candidate(s) "
        f"({dict(stats.classes)}); {len(stats.one_class_tasks)} task(s) with one class only; "
        f"{len(rollout.no_outcome)} sample(s) without outcome -> {pairs_dir}")
    if not stats.pairs:
        log(f"kernelgen-lm sample: no pairs: {no_pairs_advice(stats.classes, settings.policy)}")
    return SampleOutcome(out, pairs_dir, stats.pairs, document, [s.case_id for s in train],
                         [s.case_id for s in held])


def _finished(run_dir: Path, specs: Any, samples: int) -> set[tuple[str, int]]:
    """The (task, sample) pairs a resumed run already evaluated (none when there is no run yet)."""
    from npukernelbench.store import RunDir

    if not (run_dir / "results.jsonl").is_file():
        return set()
    wanted = {s.case_id for s in specs}
    return {(task, i) for task, i in RunDir(run_dir).finished() if task in wanted and i < samples}
