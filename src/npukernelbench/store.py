"""The run directory: completions.jsonl, results.jsonl (one line per sample, appended and flushed as
each finishes), summary.json and report.md. A killed run keeps every finished line; a resumed run
skips them. Only one process writes (the pytest controller, or the CLI)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from npukernelbench.generators.base import Completion
from npukernelbench.result import SampleResult

COMPLETIONS = "completions.jsonl"
RESULTS = "results.jsonl"
SUMMARY = "summary.json"
REPORT = "report.md"
HTML_REPORT = "report.html"
HEADER = "run.json"
PREVIOUS_RESULTS = "results.prev.jsonl"


class StoreError(RuntimeError):
    pass


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Complete JSON lines of ``path``; a torn last line (killed mid-write) is ignored."""
    if not path.is_file():
        return []
    rows = []
    with path.open(encoding="utf-8") as fh:
        for number, line in enumerate(fh, start=1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                if fh.read().strip():      # not the last line: the file is damaged, say where
                    raise StoreError(f"{path}:{number}: not valid JSON; fix or delete the line") from None
    return rows


@dataclass
class RunDir:
    path: Path

    def __post_init__(self) -> None:
        self.path = Path(self.path)

    def create(self, fresh: bool) -> None:
        """Make the directory; ``fresh`` drops earlier results (a new run), else they are kept (resume)."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise StoreError(f"cannot write the run directory {self.path}: {exc.strerror or exc}; "
                             "choose another with --npukb-out") from exc
        if fresh:
            self.start_fresh()

    def start_fresh(self) -> None:
        """A new run in an existing directory: the previous results.jsonl is kept as results.prev.jsonl
        (never silently lost), the previous summary and report are dropped."""
        old = self.path / RESULTS
        if old.is_file() and old.stat().st_size:
            os.replace(old, self.path / PREVIOUS_RESULTS)
        for name in (RESULTS, SUMMARY, REPORT):
            (self.path / name).unlink(missing_ok=True)

    # -- header -----------------------------------------------------------------------------------
    def write_header(self, header: dict[str, Any]) -> None:
        """run.json: the run's settings, plus when it started and the project version that ran it."""
        from npukernelbench import __version__

        stamped = {"started": datetime.now(UTC).isoformat(timespec="seconds"), "npukb_version": __version__, **header}
        (self.path / HEADER).write_text(json.dumps(stamped, indent=2, sort_keys=True) + "\n", encoding="utf-8")

    def header(self) -> dict[str, Any]:
        p = self.path / HEADER
        return json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}

    # -- completions ------------------------------------------------------------------------------
    def write_completions(self, completions: Iterable[Completion],
                          follow_ups: Iterable[tuple[int, Completion]] = ()) -> None:
        """The first-turn completions, then the later turns of multi-turn repair (``(turn, completion)``,
        each row with its ``"turn"``)."""
        tmp = self.path / (COMPLETIONS + ".tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for turn, c in [*((1, c) for c in completions), *follow_ups]:
                row = {"task": c.task, "sample": c.sample, "text": c.text,
                       "files": dict(c.files) if c.files is not None else None, "tokens": c.tokens,
                       "meta": dict(c.meta)}
                if turn > 1:
                    row["turn"] = turn
                fh.write(json.dumps(row) + "\n")
        os.replace(tmp, self.path / COMPLETIONS)

    def completions(self) -> dict[tuple[str, int], Completion]:
        """The first-turn completions by (task, sample)."""
        return {(task, sample): c for (task, sample, turn), c in self.turn_completions().items() if turn == 1}

    def follow_ups(self) -> dict[tuple[str, int, int], Completion]:
        """The completions of later repair turns (turn > 1) by (task, sample, turn)."""
        return {key: c for key, c in self.turn_completions().items() if key[2] > 1}

    def turn_completions(self) -> dict[tuple[str, int, int], Completion]:
        out = {}
        for row in _read_jsonl(self.path / COMPLETIONS):
            c = Completion(task=row["task"], sample=int(row["sample"]), text=row.get("text"), files=row.get("files"),
                           tokens=row.get("tokens"), meta=row.get("meta") or {})
            out[(c.task, c.sample, int(row.get("turn") or 1))] = c
        return out

    # -- results ----------------------------------------------------------------------------------
    def append_result(self, result: SampleResult) -> None:
        with (self.path / RESULTS).open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(result.to_json(), sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def results(self) -> list[SampleResult]:
        """Finished results, the last line per (task, sample) winning (with multi-turn repair: the
        sample's last turn, its final outcome)."""
        latest: dict[tuple[str, int], SampleResult] = {}
        for r in self._all_results():
            latest[(r.task, r.sample)] = r
        return list(latest.values())

    def turn_results(self) -> list[SampleResult]:
        """Every turn's result (multi-turn repair), the last line per (task, sample, turn) winning."""
        latest: dict[tuple[str, int, int], SampleResult] = {}
        for r in self._all_results():
            latest[(r.task, r.sample, r.turn or 1)] = r
        return list(latest.values())

    def _all_results(self) -> list[SampleResult]:
        out = []
        for number, row in enumerate(_read_jsonl(self.path / RESULTS), start=1):
            try:
                r = SampleResult.from_json(row)
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                raise StoreError(f"{self.path / RESULTS}: record {number} is not a result this version of "
                                 f"npukernelbench reads ({type(exc).__name__}: {exc})") from None
            out.append(r)
        return out

    def finished(self) -> set[tuple[str, int]]:
        return {(r.task, r.sample) for r in self.results()}

    def write_summary(self, summary: dict[str, Any]) -> None:
        (self.path / SUMMARY).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")

    def write_report(self, text: str) -> None:
        (self.path / REPORT).write_text(text, encoding="utf-8")
