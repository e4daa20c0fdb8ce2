"""``npukb export-completions RUN_DIR [-o FILE]``: a run's completions as a replay file.

Each line follows the replay schema (:mod:`npukernelbench.generators.replay`): ``{"task": CASE_ID,
"sample": I, "completion": TEXT}`` (or ``"files"`` instead of ``"completion"`` for completions that
were files from the start), plus ``"tokens"`` and ``"meta"`` when the completion has them, sorted by
task and sample, so that ``pytest benchmark_cases --model=replay:FILE`` re-evaluates the run without
the model (for instance in CI). The default output is ``RUN_DIR/replay.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from npukernelbench.jsonl import read_objects

COMPLETIONS = "completions.jsonl"
DEFAULT_OUTPUT = "replay.jsonl"


class ExportError(RuntimeError):
    pass


def read_completions(run_dir: Path) -> Iterator[dict[str, Any]]:
    path = run_dir / COMPLETIONS
    if not run_dir.is_dir():
        raise ExportError(f"{run_dir} is not a directory; pass the run directory of a benchmark run "
                          f"(the one with {COMPLETIONS}, set by --npukb-out)")
    if not path.is_file():
        raise ExportError(f"{run_dir} has no {COMPLETIONS}: no completions were generated into it")
    for _, row in read_objects(path, ExportError, required=("task", "sample")):
        yield row


def replay_rows(run_dir: Path) -> list[dict[str, Any]]:
    rows = []
    for row in read_completions(run_dir):
        out: dict[str, Any] = {"task": row["task"], "sample": int(row["sample"])}
        if row.get("text") is not None:
            out["completion"] = row["text"]
        elif row.get("files") is not None:
            out["files"] = row["files"]
        else:
            out["completion"] = ""
        if row.get("tokens") is not None:
            out["tokens"] = row["tokens"]
        if row.get("meta"):
            out["meta"] = row["meta"]
        if int(row.get("turn") or 1) > 1:          # a multi-turn repair answer (--npukb-turns)
            out["turn"] = int(row["turn"])
        rows.append(out)
    rows.sort(key=lambda r: (r["task"], r["sample"], r.get("turn", 1)))
    return rows


def export(run_dir: Path, output: Path) -> int:
    """Write the replay file atomically; return the number of lines."""
    rows = replay_rows(run_dir)
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    os.replace(tmp, output)
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="npukb export-completions",
                                     description="Write a run's completions as a replay file "
                                                 "(--model=replay:FILE re-evaluates them without the model).")
    parser.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    parser.add_argument("-o", "--output", type=Path, default=None,
                        help=f"replay file to write (default RUN_DIR/{DEFAULT_OUTPUT})")
    args = parser.parse_args(argv)
    output = args.output or args.run_dir / DEFAULT_OUTPUT
    try:
        count = export(args.run_dir, output)
    except (ExportError, OSError) as exc:
        print(f"npukb export-completions: error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {count} completions to {output} (use --model=replay:{output})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
