"""Which benchmark tasks a training step uses: case discovery, task-id globs, and the evaluation split.

The evaluation split is what ``kernelgen-lm sample`` leaves out by default, so preference data never
comes from the tasks a model is measured on: the tasks matching ``eval_tasks`` globs, plus a stable
share of the rest (``eval_share``, by a hash of the case id, the same on every machine and run).
"""

from __future__ import annotations

import fnmatch
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def select_tasks(cases: Sequence[Path], patterns: Sequence[str] = ()) -> list[Any]:
    """TaskSpecs under ``cases`` whose case id matches one of ``patterns`` (all when empty). A pattern
    that matches nothing is an error (a typo would otherwise silently train on nothing)."""
    from npukernelbench.cases import discover

    specs = discover([Path(c) for c in cases])
    if not specs:
        raise ValueError(f"no benchmark cases under {', '.join(str(c) for c in cases)}")
    if not patterns:
        return specs
    chosen = [s for s in specs if any(fnmatch.fnmatchcase(s.case_id, p) for p in patterns)]
    unmatched = [p for p in patterns if not any(fnmatch.fnmatchcase(s.case_id, p) for s in specs)]
    if unmatched:
        raise ValueError(f"task pattern(s) {', '.join(unmatched)} match no case id under "
                         f"{', '.join(str(c) for c in cases)} (ids look like {specs[0].case_id})")
    return chosen


def in_eval_split(case_id: str, eval_tasks: Sequence[str] = (), eval_share: float = 0.0) -> bool:
    if any(fnmatch.fnmatchcase(case_id, p) for p in eval_tasks):
        return True
    if eval_share <= 0:
        return False
    digest = hashlib.sha256(case_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < eval_share


def training_split(specs: Sequence[Any], eval_tasks: Sequence[str] = (), eval_share: float = 0.0
                   ) -> tuple[list[Any], list[Any]]:
    """(training tasks, evaluation tasks)."""
    train, held = [], []
    for spec in specs:
        (held if in_eval_split(spec.case_id, eval_tasks, eval_share) else train).append(spec)
    return train, held
