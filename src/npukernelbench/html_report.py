"""One self-contained HTML file for one run or a comparison of runs: the run header, the Table-2-shaped
comparison (with upstream NPUKernelBench's score where a run has it), the per-turn table of multi-turn
repair runs, pass@k curves, error-taxonomy bars, the per-task grid (task x run, coloured by the best
status, the first failure's message on hover) and the speedup distribution. Charts are inline SVG
(``report_plots``); the page loads nothing from the network and runs no script."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from npukernelbench.loaded_run import LoadedRun
from npukernelbench.report_plots import pass_at_k_svg, speedup_svg, taxonomy_svg
from npukernelbench.result import SampleResult, Status
from npukernelbench.run_comparison import RunComparison, display_rows
from npukernelbench.store import HTML_REPORT

# best first: the status a task x run cell shows is the best any of its samples reached
STATUS_ORDER = (Status.PASSED, Status.WRONG, Status.RUNTIME_ERROR, Status.TIMEOUT, Status.BUILD_ERROR,
                Status.REJECTED, Status.PARSE_ERROR)
# wrong (blue) and runtime_error (orange) far apart: the two commonest failures must not be misread
STATUS_COLOURS = {Status.PASSED: "#2e7d32", Status.WRONG: "#1565c0", Status.RUNTIME_ERROR: "#ef6c00",
                  Status.TIMEOUT: "#8e24aa", Status.BUILD_ERROR: "#c62828", Status.REJECTED: "#6d4c41",
                  Status.PARSE_ERROR: "#455a64"}
NOT_RUN = "#e0e0e0"

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5rem 2rem; color: #212121; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { border: 1px solid #ddd; padding: 0.2rem 0.5rem; text-align: right; }
th:first-child, td:first-child, td.left, th.left { text-align: left; }
.notes li { color: #8d4a00; }
figure.chart { margin: 0.5rem 0; } figure.chart svg { max-width: 100%; height: auto; }
table.grid td.cell { min-width: 4.5rem; text-align: center; color: #fff; font-weight: 600; cursor: help; }
table.grid td.cell.not_run { color: #757575; font-weight: 400; }
table.grid tr.partial td:first-child { color: #9e9e9e; }
.legend span { display: inline-block; padding: 0.1rem 0.5rem; margin-right: 0.3rem; color: #fff; font-size: 0.8rem; }
.estimate { color: #8d4a00; font-weight: 600; }
p.interrupted { background: #fff3e0; border-left: 4px solid #ef6c00; padding: 0.4rem 0.8rem; font-weight: 600; }
footer { margin-top: 2rem; font-size: 0.75rem; color: #757575; }
"""


def best_status(results: Sequence[SampleResult]) -> Status:
    return min((r.status for r in results), key=STATUS_ORDER.index)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], table_id: str, left: int = 1) -> str:
    head = "".join(f'<th{" class=left" if i < left else ""}>{escape(h)}</th>' for i, h in enumerate(header))
    body = "".join("<tr>" + "".join(f'<td{" class=left" if i < left else ""}>{escape(c)}</td>'
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _run_header(runs: Sequence[LoadedRun]) -> str:
    header = ["run", "model", "toolchain", "confinement", "samples/task", "tasks", "finished samples", "started",
              "npukernelbench", "directory"]
    rows = [[run.name, run.model, run.toolchain, run.confinement, str(run.samples_per_task), str(len(run.tasks)),
             f"{len(run.results)}" + (f" of {run.planned} (interrupted)" if run.interrupted else
                                      f" of {run.planned}" if run.planned else ""),
             run.started, run.version, str(run.path)] for run in runs]
    return _table(header, rows, "run-header", left=len(header))


def _interrupted(runs: Sequence[LoadedRun]) -> str:
    """One sentence per interrupted run, at the top of the page."""
    lines = []
    for run in runs:
        if run.stopped is not None:
            text = run.stopped.sentence()
        elif run.interrupted:
            text = (f"Interrupted run: only {len(run.results)} of {run.planned} planned samples finished, and "
                    "every figure below covers only those.")
        else:
            continue
        lines.append(f'<p class="interrupted">{escape((run.name + ": ") if len(runs) > 1 else "")}'
                     f"{escape(text)}</p>")
    return "".join(lines)


def _cell(run: LoadedRun, task: str) -> str:
    rs = [r for r in run.results if r.task == task]
    if not rs:
        return f'<td class="cell not_run" style="background:{NOT_RUN}" title="{escape(task)} · {escape(run.name)}: ' \
               'not in this run">–</td>'
    status = best_status(rs)
    passed = sum(r.passed for r in rs)
    tip = f"{task} · {run.name}: {passed}/{len(rs)} passed, best status {status.value}"
    failing = [r for r in rs if not r.passed]
    if failing:
        first = min(failing, key=lambda r: r.sample)
        kind = first.status.value + (f", {first.error_category.value}" if first.error_category else "")
        tip += f"\nfirst failure (sample {first.sample}, {kind}): {first.message.strip()[:600]}"
    return (f'<td class="cell {status.value}" style="background:{STATUS_COLOURS[status]}" '
            f'title="{escape(tip)}">{passed}/{len(rs)}</td>')


def _task_count(comparison: RunComparison) -> str:
    """How many tasks the tables cover: a run's tasks, or those common to all the runs compared."""
    if len(comparison.runs) == 1:
        return f"{len(comparison.tasks)} task(s) in the run."
    return f"{len(comparison.tasks)} task(s) common to all {len(comparison.runs)} runs."


def _task_grid(comparison: RunComparison) -> str:
    runs = comparison.runs
    tasks = sorted(frozenset().union(*(run.tasks for run in runs)))
    common = set(comparison.tasks)
    head = '<th class=left>task</th>' + "".join(f"<th>{escape(run.name)}</th>" for run in runs)
    body = "".join(f'<tr class="{"common" if t in common else "partial"}"><td>{escape(t)}</td>' +
                   "".join(_cell(run, t) for run in runs) + "</tr>" for t in tasks)
    legend = "".join(f'<span style="background:{STATUS_COLOURS[s]}">{s.value}</span>' for s in STATUS_ORDER)
    legend += f'<span style="background:{NOT_RUN};color:#616161">not in the run</span>'
    return (f'<p class="legend">{legend}</p><p>Cells: passed samples / samples, coloured by the best status any '
            'sample reached; hover for the first failure\'s message. Grey task names: not in every run (left out '
            f'of the tables and charts).</p><table class="grid" id="task-grid"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def _speedups(comparison: RunComparison) -> str:
    names = [run.name for run in comparison.runs]
    kind = comparison.runs[0].speed_kind
    values = [[r.speedup for r in rs if r.passed and r.speedup is not None and not r.suspect and r.speedup > 0]
              for rs in comparison.results]
    suspects = [(run.name, r) for run, rs in zip(comparison.runs, comparison.results, strict=True)
                for r in rs if r.suspect]
    out = []
    if kind == "estimated":
        out.append('<p class="estimate">Estimated speedups: simulator cost model, not measured on hardware.</p>')
    if any(values):
        out.append(f'<figure class="chart" id="chart-speedup">{speedup_svg(names, values, kind)}</figure>')
    else:
        out.append('<p id="chart-speedup">No correct sample has a speedup to show.</p>')
    if suspects:
        out.append("<p>Suspect speedups (kept out of the geomean until audited): " +
                   ", ".join(f"{escape(n)} {escape(r.task)}[s{r.sample}] {r.speedup}x" for n, r in suspects) + "</p>")
    return "".join(out)


def _upstream_note(comparison: RunComparison) -> str:
    """What the table's ``upstream score`` column means (empty when no run has that score)."""
    if not any(comparison.scored()):
        return ""
    from npukernelbench.upstream_score import LEVEL_WEIGHTS

    weights = "/".join(f"{w:g}" for w in LEVEL_WEIGHTS.values())
    without = [run.name for run, has in zip(comparison.runs, comparison.scored(), strict=True) if not has]
    missing = (f" {', '.join(without)}: no per-case record, so no upstream score (-)." if without else "")
    return ('<p id="upstream-score-note">Upstream score: upstream NPUKernelBench\'s own figure, the share of '
            f"(task, case, sample) items passed in percent per level; on the mean row the overall score, levels "
            f"weighted {weights}, out of what the levels present allow. Comparable with upstream's figure only in "
            f"--npukb-mode kernel-only or full.{escape(missing)}</p>")


def _turns(comparison: RunComparison) -> str:
    """The per-turn table of the runs made with multi-turn repair (more than one turn; empty when none)."""
    from npukernelbench.turn_metrics import turn_summary, turn_table

    common = set(comparison.tasks)
    header: list[str] = []
    rows: list[list[str]] = []
    never = []
    for run in comparison.runs:
        if run.turns < 2:
            continue
        rs = [r for r in run.turn_results if r.task in common]
        section = turn_summary(rs, run.samples_per_task, run.turns)
        head, body = turn_table(section, rs, comparison.ks)
        header = ["run", *head]
        rows += [[run.name, *row] for row in body]
        never.append(f"{run.name}: {section['never_passed']}" if len(comparison.runs) > 1 else
                     str(section["never_passed"]))
    if not rows:
        return ""
    return ("<h2>Multi-turn repair</h2><p>Per turn: the samples answered at that turn (a failing sample gets its "
            "own feedback and answers again; a pass ends its episode), the samples passed after it (each sample "
            "at its last turn so far), CR and ER pass@k after it in percent, and how many samples that turn "
            f"fixed (failed at every earlier turn). Samples that never passed: {escape('; '.join(never))}.</p>"
            + _table(header, rows, "turn-table", left=1))


def render_html(comparison: RunComparison, title: str | None = None) -> str:
    from npukernelbench import __version__

    runs = comparison.runs
    names = [run.name for run in runs]
    title = title or ("NPUKernelBench report: " + runs[0].name if len(runs) == 1 else
                      "NPUKernelBench comparison: " + " vs ".join(names))
    header, rows = display_rows(comparison, upstream=True)
    levels = comparison.levels()
    notes = "".join(f"<li>{escape(n)}</li>" for n in comparison.notes)
    taxonomies = [s["taxonomy"] for s in comparison.summaries]
    delta = f" In parentheses: difference to {escape(names[0])}." if len(runs) > 1 else ""
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>", _interrupted(runs), "<h2>Runs</h2>", _run_header(runs),
        f'<ul class="notes">{notes}</ul>' if notes else "",
        "<h2>Compile and execution rates</h2>",
        f"<p>{_task_count(comparison)} CR and ER are unbiased pass@k in percent, "
        f"speedup the geometric mean over correct, non-suspect samples, fast_1 the share of tasks with a correct "
        f"sample faster than the expert solution.{delta}</p>",
        _table(header, rows, "comparison-table", left=2), _upstream_note(comparison), _turns(comparison),
        "<h2>Execution rate against sampling budget (pass@k)</h2>",
        f'<figure class="chart" id="chart-passk">{pass_at_k_svg(names, comparison.results, levels)}</figure>',
        "<h2>Error taxonomy (build errors)</h2>",
        f'<figure class="chart" id="chart-taxonomy">{taxonomy_svg(names, taxonomies)}</figure>',
        "<h2>Per task</h2>", _task_grid(comparison),
        "<h2>Speedup distribution</h2>", _speedups(comparison),
        f"<footer>Written by npukernelbench {escape(__version__)} on "
        f"{datetime.now(UTC).isoformat(timespec='seconds')}.</footer>", "</body></html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def write_html(path: Path, text: str) -> None:
    """Write atomically (a reader never sees half a page)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_run_html(run_dir: Path, target: Path | None = None) -> Path:
    """The HTML report of one run directory (default ``RUN_DIR/report.html``); returns where it went."""
    from npukernelbench.loaded_run import load_run
    from npukernelbench.run_comparison import compare_runs

    target = target or Path(run_dir) / HTML_REPORT
    write_html(target, render_html(compare_runs([load_run(run_dir)])))
    return target
