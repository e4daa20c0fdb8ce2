"""The ``replay:PATH.jsonl`` model: completions read from a file.

The replay schema (also what ``npukb export-completions`` writes), one JSON object per line:

==============  ========  ============================================================"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from npukernelbench.generators.base import Completion, GenerationRequest, GeneratorOptions
from npukernelbench.jsonl import read_objects
from npukernelbench.modes import SEPARATOR, row_task_id

SCHEMA_KEYS = ("task", "sample", "case_id", "completion", "files", "tokens", "meta", "turn")


class ReplayError(ValueError):
    pass


def read_replay(path: Path) -> dict[tuple[str, int], dict]:
    """The first-turn rows, by (task, sample) (rows of later turns: :func:`read_replay_turns`)."""
    return {(task, sample): row for (task, sample, turn), row in read_replay_turns(path).items() if turn == 1}


def read_replay_turns(path: Path) -> dict[tuple[str, int, int], dict]:
    """Every row, by (task, sample, turn): ``turn`` (default 1) is the multi-turn repair turn a row answers
    (``--npukb-turns``: turn t > 1 is the sample's answer to the feedback on its turn t - 1)."""
    if not path.is_file():
        raise ReplayError(f"replay file {path} does not exist (--model=replay:PATH.jsonl)")
    rows: dict[tuple[str, int, int], dict] = {}
    for number, row in read_objects(path, ReplayError, required=("task",),
                                    expected="an object with 'task', 'sample' and 'completion' or 'files'"):
        if ("completion" in row) == ("files" in row):
            raise ReplayError(f"{path}:{number}: needs exactly one of 'completion' (text) and 'files' "
                              "(path -> source)")
        if "completion" in row and not isinstance(row["completion"], str):
            raise ReplayError(f"{path}:{number}: 'completion' must be a string")
        if "meta" in row and not isinstance(row["meta"], dict):
            raise ReplayError(f"{path}:{number}: 'meta' must be an object")
        if "files" in row and not (isinstance(row["files"], dict)
                                   and all(isinstance(v, str) for v in row["files"].values())):
            raise ReplayError(f"{path}:{number}: 'files' must map relative paths to source text")
        try:
            sample = int(row.get("sample", 0))
        except (TypeError, ValueError):
            raise ReplayError(f"{path}:{number}: 'sample' must be an integer") from None
        turn = row.get("turn", 1)
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
            raise ReplayError(f"{path}:{number}: 'turn' must be a whole number >= 1")
        task = str(row["task"]).strip("/")
        if "case_id" in row:                 # one CSV row of the task (the kernel-only and full modes)
            if not isinstance(row["case_id"], str | int) or isinstance(row["case_id"], bool):
                raise ReplayError(f"{path}:{number}: 'case_id' must be the row's case_id (an integer or a string)")
            task = row_task_id(task, row["case_id"])
        rows[(task, sample, turn)] = row
    return rows


def replay_sample_counts(path: Path) -> dict[str, int]:
    """Task id -> the number of samples the file holds for it (the highest sample index + 1)."""
    counts: dict[str, int] = {}
    for task, sample in read_replay(path):
        counts[task] = max(counts.get(task, 0), sample + 1)
    return counts


def check_replay_selection(path: Path, case_ids: Collection[str], samples: int,
                           all_rows: Mapping[str, Collection[str]] | None = None) -> str | None:
    """Raise :class:`ReplayError` when the file holds no task of the selection (every sample would be
    skipped: a false green), or a record names a case_id its task has not (``all_rows``: task -> every
    case_id, in the kernel-only and full modes); return a note when ``samples`` leaves some of the file's
    samples out."""
    counts = replay_sample_counts(path)
    held = {task: n for task, n in counts.items() if task in set(case_ids)}
    rows_of: dict[str, set[str]] = {}
    for cid in case_ids:
        if SEPARATOR in cid:
            task, _, row = cid.rpartition(SEPARATOR)
            rows_of.setdefault(task, set()).add(row)
    for key in counts:
        task, _, row = key.rpartition(SEPARATOR)
        known = set((all_rows or {}).get(task, ())) or rows_of.get(task, set())
        if task in rows_of and row not in known:
            raise ReplayError(f"replay file {path}: task {task} has no case_id {row!r} (its case_ids: "
                              f"{', '.join(sorted(known))})")
    if not held:
        shown = ", ".join(sorted(counts)[:3]) + (f" and {len(counts) - 3} more" if len(counts) > 3 else "")
        raise ReplayError(f"replay file {path} holds none of the {len(case_ids)} selected task(s) "
                          f"(it holds {shown or 'no rows'}); check the task ids or the case paths")
    left = sum(n - samples for n in held.values() if n > samples)
    if left:
        return (f"--samples {samples} leaves out {left} completion(s) of the replay file (it holds up to "
                f"{max(held.values())} per task; omit --samples to evaluate them all)")
    return None


class ReplayGenerator:
    def __init__(self, model: str, options: GeneratorOptions | None = None):
        self.path = Path(model).expanduser()
        self.rows = read_replay_turns(self.path)
        self.name = f"replay:{self.path}"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        """A first-turn request gets samples 0 .. n-1; a follow-up (``turn`` > 1) the row of its sample and
        turn (one completion, numbered 0 like any one-sample answer)."""
        out = []
        for req in requests:
            batch = []
            for i in range(req.sampling.n):
                wanted = (req.id, i, 1) if req.turn == 1 or req.sample is None else (req.id, req.sample + i, req.turn)
                row = self.rows.get(wanted)
                if row is None:
                    batch.append(Completion(req.id, i, text=None,
                                            meta={"missing": f"missing from the replay file {self.path}"}))
                elif "files" in row:
                    batch.append(Completion(req.id, i, files=row["files"], tokens=row.get("tokens"),
                                            meta=row.get("meta") or {}))
                else:
                    batch.append(Completion(req.id, i, text=str(row["completion"]),
                                            tokens=row.get("tokens"), meta=row.get("meta") or {}))
            out.append(batch)
        return out

    def close(self) -> None:
        pass
