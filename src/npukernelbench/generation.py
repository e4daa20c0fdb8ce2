"""Generate every completion of a run once, before evaluation, and store it in completions.jsonl."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from npukernelbench.generators.base import Completion, GenerationRequest, Generator
from npukernelbench.options import RunOptions
from npukernelbench.store import RunDir

if TYPE_CHECKING:
    from npukernelbench.spec import TaskSpec

LOCAL_BACKENDS = ("reference", "mutants", "replay")


def open_generator(options: RunOptions) -> Generator:
    """The run's generator, behind the completion cache for models that are not local files."""
    from npukernelbench.generators import get_generator, resolve

    backend, _ = resolve(options.model)
    generator = get_generator(options.model, options.generator_options())
    if backend not in LOCAL_BACKENDS:
        try:
            from npukernelbench.completion_cache import CachedGenerator, CompletionCache, default_cache_dir

            generator = CachedGenerator(generator, CompletionCache(default_cache_dir()))
        except ImportError:
            pass
    return generator


def generate_for(specs: Sequence[TaskSpec], options: RunOptions) -> dict[tuple[str, int], Completion]:
    """``options.samples`` completions per task, from one generator instance, one batched call."""
    if not specs:
        return {}
    generator = open_generator(options)
    from npukernelbench.prompt import build_messages

    prompt = options.prompt_options()
    requests = [GenerationRequest(task=s, messages=build_messages(s, prompt), sampling=options.sampling())
                for s in specs]
    try:
        batches = generator.generate(requests)
    finally:
        generator.close()
    out: dict[tuple[str, int], Completion] = {}
    for spec, batch in zip(specs, batches, strict=True):
        if len(batch) != options.samples:
            raise RuntimeError(f"generator {options.model!r} returned {len(batch)} completions for {spec.case_id}, "
                               f"{options.samples} requested")
        for i, c in enumerate(batch):
            out[(spec.case_id, i)] = Completion(task=spec.case_id, sample=i, text=c.text, files=c.files,
                                                tokens=c.tokens, meta=c.meta)
    return out


def check_replay(specs: Sequence[TaskSpec], options: RunOptions) -> str | None:
    """For a ``replay:`` model: a :class:`ReplayError` when the file holds none of the selected tasks,
    and a note when ``--samples`` leaves some of its completions out; nothing for other models."""
    from pathlib import Path

    from npukernelbench.generators import resolve
    from npukernelbench.generators.replay import check_replay_selection

    backend, arg = resolve(options.model)
    if backend != "replay":
        return None
    from npukernelbench.modes import task_of

    all_rows = {task_of(s): s.mode_row.case_ids for s in specs if s.mode_row is not None}
    return check_replay_selection(Path(arg).expanduser(), [s.case_id for s in specs], options.samples, all_rows)


class MissingCompletions(ValueError):
    """Samples the model (a replay file) has no completion for, with ``--strict``."""


def ensure_completions(specs: Sequence[TaskSpec], options: RunOptions, run: RunDir,
                       strict: bool = False) -> dict[tuple[str, int], Completion]:
    """Completions for every (task, sample): reused from the run directory when resuming, the
    missing ones generated in one call, all written back to completions.jsonl. A sample the
    generator marks missing (``meta["missing"]``: not in the replay file) is returned as such but
    not written; with ``strict`` it raises :class:`MissingCompletions` instead."""
    existing = run.completions() if options.resume else {}
    todo = [s for s in specs if any((s.case_id, i) not in existing for i in range(options.samples))]
    fresh = generate_for(todo, options)
    merged = {**existing, **fresh}
    absent = sorted(key for key, c in merged.items() if c.meta.get("missing"))
    if absent and strict:
        names = ", ".join(f"{task}[s{sample}]" for task, sample in absent[:5])
        more = f" and {len(absent) - 5} more" if len(absent) > 5 else ""
        raise MissingCompletions(f"{len(absent)} selected sample(s) have no completion in {options.model}: "
                                 f"{names}{more} (without --strict they are left out with a warning)")
    follow_ups = sorted(run.follow_ups().items()) if options.resume else []     # later repair turns are kept
    run.write_completions(sorted((c for c in merged.values() if not c.meta.get("missing")),
                                 key=lambda c: (c.task, c.sample)), [(key[2], c) for key, c in follow_ups])
    return merged
