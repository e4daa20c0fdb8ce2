"""Several runs side by side, shaped like the paper's Table 2: one row per level and run, CR and ER at
every k the runs support, speedup geomean and fast_1, each with its difference to the first run.
Runs are compared on the tasks all of them have results for; the notes say when that differs from
what each run holds, and when the toolchains differ or a run was interrupted."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from npukernelbench.loaded_run import LoadedRun, RunLoadError
from npukernelbench.metrics import KS, LEVELS, summarize
from npukernelbench.report import grid
from npukernelbench.result import SampleResult
from npukernelbench.upstream_score import LEVEL_WEIGHTS, has_case_record, upstream_score

# upstream NPUKernelBench's score per (level, run) in the CSV, only when some run has it (has_case_record)
UPSTREAM_COLUMNS = ("upstream_score", "upstream_max_possible", "upstream_cases_passed", "upstream_cases",
                    "upstream_weight", "dupstream_score")


@dataclass(frozen=True)
class RunComparison:
    runs: tuple[LoadedRun, ...]
    tasks: tuple[str, ...]                         # the common tasks every figure is computed on
    results: tuple[tuple[SampleResult, ...], ...]  # per run, restricted to ``tasks``
    summaries: tuple[dict[str, Any], ...]          # per run: metrics.summarize of those results
    ks: tuple[int, ...]                            # every k some run supports
    notes: tuple[str, ...]

    def levels(self) -> list[str]:
        present = {f"level{r.level}" for rs in self.results for r in rs}
        return [lv for lv in LEVELS if lv in present] + ["mean"]

    def scored(self) -> tuple[bool, ...]:
        """Per run: whether it has upstream's score, i.e. per-case records (upstream_score.has_case_record)."""
        return tuple(has_case_record(rs) for rs in self.results)


def compare_runs(runs: Sequence[LoadedRun]) -> RunComparison:
    if not runs:
        raise RunLoadError("no run directory given")
    common = frozenset.intersection(*(run.tasks for run in runs))
    if not common:
        raise RunLoadError("no task is common to all runs (" +
                           "; ".join(f"{run.name}: {len(run.tasks)} tasks" for run in runs) + ")")
    notes = []
    if any(run.tasks != common for run in runs):
        notes.append(f"task sets differ: compared on the {len(common)} task(s) common to all runs (" +
                     ", ".join(f"{run.name} has {len(run.tasks)}" for run in runs) + ")")
    toolchains = {run.toolchain for run in runs}
    if len(toolchains) > 1:
        notes.append("toolchains differ (" + ", ".join(f"{run.name}: {run.toolchain}" for run in runs) +
                     "): speedups are not comparable across toolchains")
    for run in runs:
        if run.interrupted:
            notes.append(f"{run.name}: interrupted run, {len(run.results)} of {run.planned} planned samples "
                         "finished (pass@k counts only tasks with at least k samples)")
    restricted, summaries = [], []
    for run in runs:
        rs = tuple(r for r in run.results if r.task in common)
        restricted.append(rs)
        summary = summarize(rs, run.model, run.toolchain, run.samples_per_task, run.speed_kind)
        summary["confinement"] = run.confinement
        summary["upstream_score"] = upstream_score(rs)
        summaries.append(summary)
    ks = tuple(k for k in KS if any(k <= run.samples_per_task for run in runs))
    return RunComparison(tuple(runs), tuple(sorted(common)), tuple(restricted), tuple(summaries), ks, tuple(notes))


# -- the table ----------------------------------------------------------------------------------------
def _columns(ks: Sequence[int]) -> list[str]:
    return [f"CR@{k}" for k in ks] + [f"ER@{k}" for k in ks] + ["speedup", "fast_1"]


def _values(level: dict[str, Any], ks: Sequence[int]) -> list[float | None]:
    """Percentages for CR/ER/fast_1, a ratio for the speedup; None where the run has no value."""
    def pct(x: float | None) -> float | None:
        return None if x is None else round(100 * x, 4)

    return ([pct(level["cr"].get(f"pass@{k}")) for k in ks] + [pct(level["er"].get(f"pass@{k}")) for k in ks] +
            [level["speedup_geomean"], pct(level.get("fast_1"))])


def _upstream_values(block: dict[str, Any] | None, level: str) -> dict[str, Any]:
    """Upstream's figures for one table row: a level's case pass rate (out of 100, with its weight), or on
    the ``mean`` row the level-weighted overall score (out of what the levels present allow); all None
    where the run has no score or no such level."""
    values: dict[str, Any] = dict.fromkeys(UPSTREAM_COLUMNS[:-1])
    if not block:
        return values
    if level == "mean":
        levels = block["levels"].values()
        values.update(upstream_score=block.get("overall"), upstream_max_possible=block.get("max_possible"),
                      upstream_cases_passed=sum(lv["cases_passed"] for lv in levels),
                      upstream_cases=sum(lv["cases"] for lv in levels))
    elif level in block["levels"]:
        lv = block["levels"][level]
        values.update(upstream_score=lv["score"], upstream_max_possible=100.0, upstream_cases_passed=lv["cases_passed"],
                      upstream_cases=lv["cases"], upstream_weight=lv.get("weight"))
    return values


def table_records(comparison: RunComparison) -> list[dict[str, Any]]:
    """One record per (level, run): level, run, model, toolchain, tasks, samples, then each column's
    value and ``d<column>`` (difference to the first run; None for the first run or a missing value).
    When some run has upstream's score (``RunComparison.scored``), the ``UPSTREAM_COLUMNS`` follow (None
    for a run without it)."""
    cols = _columns(comparison.ks)
    scored = comparison.scored()
    records = []
    for level in comparison.levels():
        first = None
        first_score: float | None = None
        for i, (run, summary) in enumerate(zip(comparison.runs, comparison.summaries, strict=True)):
            lv = summary["levels"][level]
            values = _values(lv, comparison.ks)
            if first is None:
                first = values
                deltas: list[float | None] = [None] * len(values)
            else:
                deltas = [None if a is None or b is None else round(a - b, 4)
                          for a, b in zip(values, first, strict=True)]
            rec: dict[str, Any] = {"level": level, "run": run.name, "model": run.model, "toolchain": run.toolchain,
                                   "tasks": lv["tasks"], "samples": lv["samples"]}
            rec.update(dict(zip(cols, values, strict=True)))
            rec.update({f"d{c}": d for c, d in zip(cols, deltas, strict=True)})
            if any(scored):
                up = _upstream_values(summary.get("upstream_score") if scored[i] else None, level)
                score = up["upstream_score"]
                if i == 0:
                    first_score = score
                up["dupstream_score"] = None if i == 0 or score is None or first_score is None else \
                    round(score - first_score, 4)
                rec.update(up)
            records.append(rec)
    return records


def _cell(column: str, value: float | None, delta: float | None) -> str:
    if value is None:
        return "-"
    text = f"{value:.2f}x" if column == "speedup" else f"{value:.1f}"
    if delta is not None:
        text += f" ({delta:+.2f})" if column == "speedup" else f" ({delta:+.1f})"
    return text


def _upstream_cell(rec: dict[str, Any]) -> str:
    value = rec["upstream_score"]
    if value is None:
        return "-"
    text = f"{value:.1f}"
    if rec["level"] == "mean" and rec["upstream_max_possible"] is not None:
        text += f" of {rec['upstream_max_possible']:g}"
    return text + ("" if rec["dupstream_score"] is None else f" ({rec['dupstream_score']:+.1f})")


def display_rows(comparison: RunComparison, upstream: bool = False) -> tuple[list[str], list[list[str]]]:
    """The table's header and text rows; ``upstream``: with an ``upstream score`` column when some run has
    that score (the HTML report; the terminal and markdown print it on a line of its own)."""
    cols = _columns(comparison.ks)
    kind = comparison.runs[0].speed_kind
    records = table_records(comparison)
    header = ["level", "run", "tasks", "samples"] + [c if c != "speedup" else f"speedup ({kind})" for c in cols]
    rows = [[rec["level"], rec["run"], str(rec["tasks"]), str(rec["samples"])] +
            [_cell(c, rec[c], rec[f"d{c}"]) for c in cols] for rec in records]
    if upstream and any(comparison.scored()):
        header.append("upstream score")
        for row, rec in zip(rows, records, strict=True):
            row.append(_upstream_cell(rec))
    return header, rows


def _preamble(comparison: RunComparison) -> list[str]:
    lines = [f"{run.name}: model {run.model}, toolchain {run.toolchain}, {run.samples_per_task} sample(s)/task, "
             f"{run.path}" for run in comparison.runs]
    lines.append(f"compared on {len(comparison.tasks)} task(s); CR, ER and fast_1 in percent (pass@k, unbiased); "
                 f"in parentheses: difference to {comparison.runs[0].name}")
    return lines


def score_records(comparison: RunComparison) -> list[dict[str, Any]]:
    """Per run: upstream NPUKernelBench's overall score on the common tasks (percent), what the levels
    present allow, and the difference to the first run."""
    records: list[dict[str, Any]] = []
    for run, summary in zip(comparison.runs, comparison.summaries, strict=True):
        block = summary.get("upstream_score") or {}
        overall = block.get("overall")
        first = records[0]["upstream_score"] if records else None
        records.append({"run": run.name, "upstream_score": overall, "max_possible": block.get("max_possible"),
                        "dupstream_score": None if overall is None or first is None else round(overall - first, 4)})
    return records


def score_text(comparison: RunComparison) -> str:
    """One line: every run's upstream score (levels weighted 0.2/0.3/0.5) with its difference to the first."""
    parts = []
    for rec in score_records(comparison):
        value = "-" if rec["upstream_score"] is None else f"{rec['upstream_score']:.1f}"
        delta = "" if rec["dupstream_score"] is None else f" ({rec['dupstream_score']:+.1f})"
        allowed = "" if rec["max_possible"] is None else f" of {rec['max_possible']:g}"
        parts.append(f"{rec['run']} {value}{allowed}{delta}")
    weights = "/".join(f"{w:g}" for w in LEVEL_WEIGHTS.values())
    return f"upstream NPUKernelBench score (case pass rate, levels weighted {weights}): " + ", ".join(parts)


def terminal_lines(comparison: RunComparison) -> list[str]:
    header, rows = display_rows(comparison)
    lines = _preamble(comparison) + grid(header, rows, left=2) + [score_text(comparison)]
    return lines + [f"note: {n}" for n in comparison.notes]


def markdown(comparison: RunComparison) -> str:
    header, rows = display_rows(comparison)
    out = ["# NPUKernelBench comparison", ""] + [f"- {line}" for line in _preamble(comparison)]
    out += [f"- **note:** {n}" for n in comparison.notes]
    out += ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out += ["", score_text(comparison)]
    return "\n".join(out) + "\n"


def csv_text(comparison: RunComparison) -> str:
    records = table_records(comparison)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(records[0]), lineterminator="\n")
    writer.writeheader()
    for rec in records:
        writer.writerow({k: "" if v is None else v for k, v in rec.items()})
    return buf.getvalue()
