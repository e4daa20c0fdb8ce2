"""SFT datasets this package makes itself, in the ``ascend_cot`` row format (``messages`` with the
assistant turn as ``<think>reasoning</think>`` then the answer, plus ``source``, ``origin``, ``task``,
``verified``, ``provenance``):

- :func:`expert_rows`: the benchmark prompt of each task answered by its expert solution (no
  reasoning: an empty think block), the data of the closed loop's first SFT round;
- :func:`error_round`: an error-derived round, failures of a run directory (or of training-time
  rollouts) turned into verified debugging conversations by ``ascend_cot``'s error stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

EMPTY_THINK = "<think>\n\n</think>\n\n"


def expert_rows(specs: Sequence[Any], project_level: bool = False) -> list[dict[str, Any]]:
    """One conversation per task that ships an expert solution."""
    from npukernelbench.extract import render_files
    from npukernelbench.prompt import PromptOptions, build_messages, prompt_hash

    options = PromptOptions(project_level=project_level)
    rows = []
    for spec in specs:
        if not spec.solution:
            continue
        messages = [dict(m) for m in build_messages(spec, options)]
        messages.append({"role": "assistant", "content": EMPTY_THINK + render_files(dict(spec.solution))})
        rows.append({"id": f"expert:{spec.case_id}", "messages": messages, "source": "expert",
                     "origin": f"solution:{spec.case_id}", "task": spec.case_id, "verified": "passed",
                     "provenance": {"teacher": "", "prompt_hash": prompt_hash(messages[:-1]), "config_hash": ""}})
    return rows


def write_expert_dataset(cases: Sequence[Path], out: Path, tasks: Sequence[str] = (),
                         project_level: bool = False) -> tuple[Path, int]:
    from kernelgen_lm.datasets_io import save_rows
    from kernelgen_lm.tasks import select_tasks

    rows = expert_rows(select_tasks(cases, tasks), project_level)
    if not rows:
        raise ValueError("none of the selected tasks ships an expert solution")
    return save_rows(Path(out), rows), len(rows)


def error_round(failures: Any, teacher: str, out: Path, cases: Sequence[Path] = (), docs: Sequence[Path] = (),
                **errors_options: Any) -> tuple[Path, int]:
    """Failures (an ``npukb`` run directory, or ``ascend_cot`` FailingSamples) -> a teacher explains and
    fixes each (``ascend_cot.stages.errors.error_cot``); fixes that build and pass are kept. Returns the
    SFT dataset folder (``OUT/dataset``) and its size; ``OUT`` also keeps the teacher's responses
    (a replay file) and the stage's drops."""
    import json

    from ascend_cot.output import write_dataset
    from ascend_cot.stages.errors import error_cot

    out = Path(out)
    result = error_cot(failures, teacher=teacher, out=out, cases=list(cases), docs=list(docs), **errors_options)
    folder = out / "dataset"
    write_dataset(folder, result.samples)
    with (out / "drops.jsonl").open("w", encoding="utf-8") as fh:
        for drop in result.drops:
            fh.write(json.dumps(drop.to_json(), ensure_ascii=False, default=str) + "\n")
    return folder, len(result.samples)
