"""Reading JSON-lines files written by people or other tools (replay files, a run's completions):
one object per line, blank lines skipped, every bad line reported with its file and line number."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def read_objects(path: Path, error: type[Exception], required: tuple[str, ...] = (),
                 expected: str = "") -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` per non-blank line. A line that is not JSON, not an object, or lacks a
    ``required`` key raises ``error`` naming ``path:line`` (``expected`` describes the object wanted);
    a file that cannot be read or decoded raises ``error`` too."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {path}: {exc}") from exc
    wanted = expected or "an object with " + " and ".join(f"'{key}'" for key in required)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{path}:{number}: not valid JSON ({exc.msg})") from None
        if not isinstance(row, dict) or any(key not in row for key in required):
            raise error(f"{path}:{number}: expected {wanted}")
        yield number, row
