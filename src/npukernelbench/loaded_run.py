"""A finished (or interrupted) run directory read back for reporting: its header, its results and how
much of what it planned it finished. Every way a directory can be unusable is one ``RunLoadError``
line naming the file."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from npukernelbench.interruption import Progress, recorded_interruption
from npukernelbench.result import SampleResult
from npukernelbench.store import COMPLETIONS, HEADER, RESULTS, SUMMARY, RunDir, StoreError


class RunLoadError(ValueError):
    pass


@dataclass(frozen=True)
class LoadedRun:
    name: str                              # label in tables and plots (--names, else the folder name)
    path: Path
    header: Mapping[str, Any]              # run.json (model, toolchain, samples_per_task, started, ...)
    results: tuple[SampleResult, ...]      # the last record per (task, sample), sorted
    planned: int | None                    # samples generated for the run (completions.jsonl); None: unknown
    stopped: Progress | None = None        # summary.json's record of an interrupted run (Ctrl-C)
    turn_results: tuple[SampleResult, ...] = ()   # multi-turn repair: every turn's result; () in a one-turn run

    @property
    def model(self) -> str:
        return str(self.header.get("model", "?"))

    @property
    def toolchain(self) -> str:
        return str(self.header.get("toolchain", "?"))

    @property
    def confinement(self) -> str:
        return str(self.header.get("confinement") or "unknown")

    @property
    def samples_per_task(self) -> int:
        declared = self.header.get("samples_per_task")
        if isinstance(declared, int) and declared >= 1:
            return declared
        return max((r.sample for r in self.results), default=0) + 1

    @property
    def turns(self) -> int:
        """The repair turns the run allowed (run.json's ``turns``, at least the last turn recorded); 1: one turn."""
        declared = self.header.get("turns")
        recorded = max((r.turn or 1 for r in self.turn_results), default=1)
        return max(declared if isinstance(declared, int) and declared >= 1 else 1, recorded)

    @property
    def version(self) -> str:
        return str(self.header.get("npukb_version") or "unknown")

    @property
    def started(self) -> str:
        """When the run started (run.json), else when its results were last written."""
        if self.header.get("started"):
            return str(self.header["started"])
        stamp = datetime.fromtimestamp((self.path / RESULTS).stat().st_mtime, UTC)
        return stamp.isoformat(timespec="seconds") + " (results file time)"

    @property
    def speed_kind(self) -> str:
        return next((r.speed_kind for r in self.results if r.speed_kind), None) or "estimated"

    @property
    def tasks(self) -> frozenset[str]:
        return frozenset(r.task for r in self.results)

    @property
    def interrupted(self) -> bool:
        return self.stopped is not None or (self.planned is not None and len(self.results) < self.planned)


def _header(run: RunDir) -> dict[str, Any]:
    try:
        header = run.header()
    except (ValueError, UnicodeDecodeError) as exc:
        raise RunLoadError(f"{run.path / HEADER}: not valid JSON ({exc}); fix or delete it") from None
    if not isinstance(header, dict):
        raise RunLoadError(f"{run.path / HEADER}: expected a JSON object, found {type(header).__name__}")
    if not header.get("confinement"):          # runs made by `npukb evaluate` record it in summary.json
        try:
            summary = json.loads((run.path / SUMMARY).read_text(encoding="utf-8"))
            if isinstance(summary, dict) and summary.get("confinement"):
                header["confinement"] = summary["confinement"]
        except (OSError, ValueError):
            pass
    return header


def load_run(path: str | Path, name: str | None = None) -> LoadedRun:
    """The run directory ``path`` (made by the pytest plugin or ``npukb evaluate``)."""
    run = RunDir(Path(path))
    if not run.path.is_dir():
        raise RunLoadError(f"{run.path}: no such run directory")
    if not (run.path / RESULTS).is_file():
        raise RunLoadError(f"{run.path} holds no {RESULTS} (is it a run directory? set by --npukb-out)")
    header = _header(run)
    try:
        results = run.results()
        turns = sorted(run.turn_results(), key=lambda r: (r.task, r.sample, r.turn or 1)) \
            if any(r.turn for r in results) else []
        planned = len(run.completions()) or None
    except (StoreError, KeyError, TypeError, ValueError, UnicodeDecodeError) as exc:
        raise RunLoadError(str(exc) if isinstance(exc, StoreError) else
                           f"{run.path / COMPLETIONS}: unreadable ({type(exc).__name__}: {exc})") from None
    if not results:
        raise RunLoadError(f"{run.path / RESULTS}: no finished sample yet; nothing to report")
    if planned is not None and planned < len(results):
        planned = None                         # completions were regenerated for a subset: unknown
    stopped = recorded_interruption(run.path)
    if stopped is not None:
        planned = stopped.total
    return LoadedRun(name=name or run.path.resolve().name, path=run.path, header=header,
                     results=tuple(sorted(results, key=lambda r: (r.task, r.sample))), planned=planned,
                     stopped=stopped, turn_results=tuple(turns))


def load_runs(paths: Sequence[str | Path], names: Sequence[str] | None = None) -> list[LoadedRun]:
    """Several runs, named by ``names`` (as many as paths) or by their folder names made unique."""
    if names is not None and len(names) != len(paths):
        raise RunLoadError(f"--names gives {len(names)} name(s) for {len(paths)} run director(y/ies)")
    if names is not None and len(set(names)) != len(names):
        raise RunLoadError(f"--names has duplicates: {', '.join(names)}")
    runs = [load_run(p, names[i] if names else None) for i, p in enumerate(paths)]
    if names is None:
        seen: dict[str, int] = {}
        unique = []
        for run in runs:
            seen[run.name] = seen.get(run.name, 0) + 1
            label = run.name if seen[run.name] == 1 else f"{run.name}#{seen[run.name]}"
            unique.append(replace(run, name=label))
        runs = unique
    return runs
