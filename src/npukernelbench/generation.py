"""Generate every completion of a run once, before evaluation, and store it in completions.jsonl."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from npukernelbench.generators.base import Completion, GenerationRequest
from npukernelbench.options import RunOptions
from npukernelbench.store import RunDir

if TYPE_CHECKING:
    from npukernelbench.spec import TaskSpec

LOCAL_BACKENDS = ("reference", "mutants", "replay")


def generate_for(specs: Sequence[TaskSpec], options: RunOptions) -> dict[tuple[str, int], Completion]:
    """``options.samples`` completions per task, from one generator instance, one batched call."""
    from npukernelbench.generators import get_generator, resolve

    if not specs:
        return {}
    backend, _ = resolve(options.model)
    generator = get_generator(options.model, options.generator_options())
    if backend not in LOCAL_BACKENDS:
        try:
            from npukernelbench.completion_cache import CachedGenerator, CompletionCache, default_cache_dir

            generator = CachedGenerator(generator, CompletionCache(default_cache_dir()))
        except ImportError:
            pass
    from npukernelbench.prompt import PromptOptions, build_messages

    hardware = None
    if options.project_level:              # the prompt describes the device of the run's toolchain
        from npukernelbench.options import load_toolchain

        hardware = load_toolchain(options.toolchain).hardware()
    prompt = PromptOptions(project_level=options.project_level, hardware=hardware)
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


def ensure_completions(specs: Sequence[TaskSpec], options: RunOptions,
                       run: RunDir) -> dict[tuple[str, int], Completion]:
    """Completions for every (task, sample): reused from the run directory when resuming, the
    missing ones generated in one call, all written back to completions.jsonl."""
    existing = run.completions() if options.resume else {}
    missing = [s for s in specs if any((s.case_id, i) not in existing for i in range(options.samples))]
    fresh = generate_for(missing, options)
    merged = {**existing, **fresh}
    run.write_completions(sorted(merged.values(), key=lambda c: (c.task, c.sample)))
    return merged
