"""How far a run got, and what an interrupted run (Ctrl-C) says: summary.json's ``interrupted``,
``finished_samples`` and ``total_samples``, the sentence at the top of report.md and the HTML report,
and the one line a run ends with (N of M samples finished, the command that resumes it). Shared by the
pytest plugin and ``npukb evaluate``; finished results are already in results.jsonl (one flushed line
each), so resuming with ``--npukb-resume`` evaluates only the rest."""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESUME_FLAG = "--npukb-resume"
EXIT_INTERRUPTED = 130                  # npukb: 128 + SIGINT, the shell's convention (pytest keeps its own 2)


@dataclass(frozen=True)
class Progress:
    """``finished`` of the ``total`` samples the run set out to evaluate have a result."""

    finished: int
    total: int
    interrupted: bool

    def to_json(self) -> dict[str, Any]:
        return {"interrupted": self.interrupted, "finished_samples": self.finished, "total_samples": self.total}

    @classmethod
    def from_summary(cls, summary: Mapping[str, Any]) -> Progress | None:
        """The progress a summary.json records (None: written before runs recorded it)."""
        finished, total = summary.get("finished_samples"), summary.get("total_samples")
        if not isinstance(finished, int) or not isinstance(total, int):
            return None
        return cls(finished, total, bool(summary.get("interrupted")))

    def sentence(self) -> str:
        """One sentence for the top of a report (empty for a run that was not interrupted)."""
        if not self.interrupted:
            return ""
        return (f"Interrupted run: only {self.finished} of {self.total} samples finished, and every figure below "
                f"covers only those; resume it with {RESUME_FLAG}.")


def recorded_interruption(run_path: Path) -> Progress | None:
    """The progress the run directory's summary.json records if the run was interrupted, else None
    (rebuilding a summary or an HTML report keeps an interrupted run marked so)."""
    from npukernelbench.store import SUMMARY

    try:
        summary = json.loads((Path(run_path) / SUMMARY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    progress = Progress.from_summary(summary) if isinstance(summary, dict) else None
    return progress if progress is not None and progress.interrupted else None


def resume_command(program: str, args: Sequence[object]) -> str:
    """``program args --npukb-resume``: the command line that goes on with an interrupted run."""
    args = [str(a) for a in args]          # pytest's invocation args may hold paths
    if RESUME_FLAG not in args:
        args.append(RESUME_FLAG)
    return " ".join([program, shlex.join(args)])


def interrupted_line(who: str, progress: Progress, run_path: object, command: str) -> str:
    """The one line an interrupted run ends with."""
    return (f"{who}: interrupted: {progress.finished} of {progress.total} samples finished (kept in "
            f"{run_path}); resume with: {command}")
