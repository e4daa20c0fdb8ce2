"""Multi-turn repair (``--npukb-turns=N``): turns 2 .. N of every episode, for ``npukb evaluate`` and
for the pytest plugin's controller (at the end of the session: its items are turn 1).

Turn 1 is the ordinary run. Then, turn by turn, every sample whose latest result is turn t - 1 and
did not pass gets the conversation so far (the prompt, each answer and its feedback:
``feedback.follow_up_messages``) and answers again; the answer is evaluated by the one pipeline and
appended to results.jsonl with its ``turn``. A passing turn ends the episode. A sample whose evaluation
failed in our machinery (infrastructure, broken case) has no result for that turn: it is listed with
the run's infrastructure failures and its episode stops (never fed back: it is not the candidate's
fault); a resumed run takes it up again. Everything is derived from the run directory (results.jsonl
and completions.jsonl keep every turn), so ``--npukb-resume`` continues an interrupted episode.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from npukernelbench.generators.base import Completion, GenerationRequest
from npukernelbench.result import SampleResult

if TYPE_CHECKING:
    from npukernelbench.options import RunOptions
    from npukernelbench.spec import TaskSpec
    from npukernelbench.store import RunDir

Key = tuple[str, int]


def histories(results: list[SampleResult]) -> dict[Key, dict[int, SampleResult]]:
    """(task, sample) -> turn -> result."""
    out: dict[Key, dict[int, SampleResult]] = {}
    for r in results:
        out.setdefault((r.task, r.sample), {})[r.turn or 1] = r
    return out


def due(results: list[SampleResult], turn: int, selected: set[Key]) -> list[Key]:
    """The selected samples that answer again at ``turn``: their last turn is ``turn - 1`` and failed."""
    out = []
    for key, by_turn in histories(results).items():
        last = max(by_turn)
        if key in selected and last == turn - 1 and not by_turn[last].passed:
            out.append(key)
    return sorted(out)


def follow_up_requests(keys: list[Key], turn: int, specs: Mapping[str, TaskSpec], options: RunOptions,
                       run: RunDir) -> list[GenerationRequest]:
    """One request per sample: its whole conversation, one completion (seeded per sample)."""
    from npukernelbench.feedback import follow_up_messages
    from npukernelbench.prompt import build_messages

    prompt_options = options.prompt_options()
    answers = run.turn_completions()
    by_sample = histories(run.turn_results())
    requests = []
    for task, sample in keys:
        spec = specs[task]
        history = [(answers[(task, sample, t)], by_sample[(task, sample)][t]) for t in range(1, turn)]
        messages = follow_up_messages(build_messages(spec, prompt_options), history, options.turns,
                                      options.out / "scratch")
        sampling = dataclasses.replace(options.sampling(), n=1, seed=options.seed + sample)
        requests.append(GenerationRequest(task=spec, messages=messages, sampling=sampling, turn=turn, sample=sample))
    return requests


def generate_turn(keys: list[Key], turn: int, specs: Mapping[str, TaskSpec], options: RunOptions,
                  run: RunDir) -> dict[Key, Completion]:
    """The answers of ``turn`` for ``keys`` (kept from completions.jsonl when a resumed run has them),
    written back to completions.jsonl. A sample the model has no answer for (a replay file without that
    turn) is left out: its episode ends."""
    from npukernelbench.generation import open_generator

    kept = run.follow_ups()
    out = {key: kept[(*key, turn)] for key in keys if (*key, turn) in kept}
    todo = [key for key in keys if key not in out]
    if todo:
        generator = open_generator(options)
        try:
            batches = generator.generate(follow_up_requests(todo, turn, specs, options, run))
        finally:
            generator.close()
        for (task, sample), batch in zip(todo, batches, strict=True):
            c = batch[0]
            if not c.meta.get("missing"):
                out[(task, sample)] = Completion(task, sample, text=c.text, files=c.files, tokens=c.tokens,
                                                 meta={**c.meta, "turn": turn})
        follow_ups = {**kept, **{(*key, turn): c for key, c in out.items()}}
        run.write_completions(sorted(run.completions().values(), key=lambda c: (c.task, c.sample)),
                              [(key[2], follow_ups[key]) for key in sorted(follow_ups)])
    return out


def run_turns(specs: Mapping[str, TaskSpec], selected: set[Key], options: RunOptions, run: RunDir, jobs: int,
              say: Callable[[str], None], failures: list[dict]) -> None:
    """Turns 2 .. ``options.turns``: generate, evaluate, append; infrastructure failures go to ``failures``."""
    from npukernelbench.data_seed import turn_data_seed
    from npukernelbench.parallel_eval import evaluate_all

    for turn in range(2, options.turns + 1):
        keys = due(run.turn_results(), turn, selected)
        if not keys:                  # (a resumed run may still have episodes due at a later turn)
            continue
        answers = generate_turn(keys, turn, specs, options, run)
        say(f"multi-turn repair: turn {turn}/{options.turns}: {len(keys)} sample(s) answer their feedback"
            + (f" ({len(keys) - len(answers)} without an answer from the model: their episode ends)"
               if len(answers) < len(keys) else ""))
        work = [(specs[task], answers[(task, sample)]) for task, sample in keys if (task, sample) in answers]
        seed = options.with_data_seed().data_seed
        outcomes = evaluate_all(work, options.with_data_seed(turn_data_seed(seed, turn)), jobs)   # type: ignore[arg-type]
        try:
            for n, (spec, completion, outcome) in enumerate(outcomes, start=1):
                name = f"[turn {turn}: {n}/{len(work)}] {spec.case_id}[s{completion.sample}]"
                if isinstance(outcome, str):
                    failures.append({"task": spec.case_id, "sample": completion.sample, "turn": turn,
                                     "cause": outcome})
                    say(f"{name} ERROR {outcome}")
                    continue
                run.append_result(dataclasses.replace(outcome, turn=turn))
                say(f"{name} {outcome.status.value}"
                    f"{' (' + outcome.error_category.value + ')' if outcome.error_category else ''}")
        finally:
            outcomes.close()
