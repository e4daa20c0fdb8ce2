"""The ``replay:PATH.jsonl`` model: completions read from a file.

Lines: ``{"task": CASE_ID, "sample": I, "completion": TEXT}`` or ``{"task": ..., "sample": I,
"files": {"op_host/x.cpp": "..."}}``; CASE_ID is the case folder path relative to its root (or, for
free chat requests such as a dataset teacher's, the request's key). A
sample missing from the file becomes an empty completion (a parse_error), never a silent pass.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from npukernelbench.generators.base import Completion, GenerationRequest, GeneratorOptions


class ReplayError(ValueError):
    pass


def read_replay(path: Path) -> dict[tuple[str, int], dict]:
    if not path.is_file():
        raise ReplayError(f"replay file {path} does not exist (--model=replay:PATH.jsonl)")
    rows: dict[tuple[str, int], dict] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"cannot read replay file {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict) or "task" not in row:
            raise ReplayError(f"{path}:{number}: expected an object with 'task', 'sample' and 'completion' or 'files'")
        if "completion" not in row and "files" not in row:
            raise ReplayError(f"{path}:{number}: needs 'completion' (text) or 'files' (path -> source)")
        if "files" in row and not (isinstance(row["files"], dict)
                                   and all(isinstance(v, str) for v in row["files"].values())):
            raise ReplayError(f"{path}:{number}: 'files' must map relative paths to source text")
        try:
            sample = int(row.get("sample", 0))
        except (TypeError, ValueError):
            raise ReplayError(f"{path}:{number}: 'sample' must be an integer") from None
        rows[(str(row["task"]).strip("/"), sample)] = row
    return rows


class ReplayGenerator:
    def __init__(self, model: str, options: GeneratorOptions | None = None):
        self.path = Path(model).expanduser()
        self.rows = read_replay(self.path)
        self.name = f"replay:{self.path}"

    def generate(self, requests: Sequence[GenerationRequest]) -> list[list[Completion]]:
        out = []
        for req in requests:
            batch = []
            for i in range(req.sampling.n):
                row = self.rows.get((req.id, i))
                if row is None:
                    batch.append(Completion(req.id, i, text="",
                                            meta={"replay": "missing from the replay file"}))
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
