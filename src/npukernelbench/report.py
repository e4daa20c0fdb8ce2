"""Reports: the terminal table shaped like the paper's Table 2 (+ taxonomy) and report.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npukernelbench.metrics import LEVELS, ks_for
from npukernelbench.result import SampleResult
from npukernelbench.upstream_score import markdown_lines, score_line


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def table_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    ks = ks_for(summary["samples_per_task"])
    kind = summary.get("speed_kind") or "estimated"
    header = ["level", "tasks", "samples"] + [f"CR@{k}" for k in ks] + [f"ER@{k}" for k in ks] + \
        [f"speedup ({kind})", "fast_1"]
    rows = []
    for name in (*LEVELS, "mean"):
        lv = summary["levels"].get(name)
        if lv is None:                  # not selected in this run
            continue
        sg = lv["speedup_geomean"]
        rows.append([name, str(lv["tasks"]), str(lv["samples"])] +
                    [_pct(lv["cr"].get(f"pass@{k}")) for k in ks] + [_pct(lv["er"].get(f"pass@{k}")) for k in ks] +
                    ["-" if sg is None else f"{sg:.2f}x", _pct(lv.get("fast_1"))])
    return header, rows


def grid(header: list[str], rows: list[list[str]], left: int = 1) -> list[str]:
    """A plain-text table: the first ``left`` columns left-aligned, the others right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    out = [line(header), "-" * len(line(header))]
    return out + [line(r) for r in rows]


def terminal_lines(summary: dict[str, Any], extra: Sequence[str] = ()) -> list[str]:
    """The benchmark table (CR/ER in percent, pass@k) and the error taxonomy."""
    header, rows = table_rows(summary)
    lines = [f"model: {summary['model']}   toolchain: {summary['toolchain']}   "
             f"samples/task: {summary['samples_per_task']}   confinement: {summary.get('confinement') or 'unknown'}"]
    lines += grid(header, rows)
    score = score_line(summary.get("upstream_score"))
    if score:
        lines.append(score)
    if summary.get("socs"):
        lines.append("SoC profile(s): " + ", ".join(summary["socs"]))
    tax = summary["taxonomy"]
    lines.append("error taxonomy (build errors): " + ", ".join(f"{k} {v}" for k, v in tax.items()))
    statuses = summary.get("statuses", {})
    lines.append("statuses: " + ", ".join(f"{k} {v}" for k, v in statuses.items() if v))
    for s in summary.get("suspect_speedups", []):
        lines.append(f"suspect speed (kept out of the geomean, audit it): {s['task']}[s{s['sample']}] "
                     f"{_suspect_text(s)}")
    lines.extend(_left_out(summary))
    lines.extend(extra)
    return lines


def _left_out(summary: dict[str, Any]) -> list[str]:
    """Samples without an outcome: infrastructure failures and samples missing from a replay file."""
    lines = []
    infra = summary.get("infrastructure_failures") or []
    if infra:
        lines.append(f"infrastructure failures (our machinery, not the kernels; not counted anywhere, rerun them "
                     f"with --npukb-resume): {len(infra)}")
        lines += [f"  {f['task']}[s{f['sample']}]: {f['cause']}" for f in infra[:10]]
    missing = summary.get("missing_completions") or []
    if missing:
        lines.append(f"no completion (missing from the replay file, or no expert answer; not counted anywhere): "
                     f"{len(missing)} sample(s)")
    return lines


def _suspect_text(s: dict[str, Any]) -> str:
    speed = f"{s['speedup']}x" if s.get("speedup") is not None else "no speedup"
    return f"{speed} ({s['reason']})" if s.get("reason") else speed


def markdown(summary: dict[str, Any], results: Sequence[SampleResult], extra: Sequence[str] = ()) -> str:
    from npukernelbench.interruption import Progress

    header, rows = table_rows(summary)
    progress = Progress.from_summary(summary)
    out = ["# NPUKernelBench report", ""]
    if progress is not None and progress.interrupted:
        out += [f"**{progress.sentence()}**", ""]
    out += [f"- model: `{summary['model']}`", f"- toolchain: `{summary['toolchain']}`",
            f"- samples per task: {summary['samples_per_task']}",
            f"- confinement of candidate builds and runs: {summary.get('confinement') or 'unknown'}",
            f"- SoC profile(s): {', '.join(summary.get('socs') or []) or 'unknown'}",
            f"- speed: {summary.get('speed_kind') or 'estimated'} (geometric mean of baseline/candidate time over "
            "correct, non-suspect samples)", "", "CR and ER are unbiased pass@k in percent.", "",
            "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    score = markdown_lines(summary.get("upstream_score"))
    if score:
        out += ["", *score]
    out += ["", "## Error taxonomy (build errors)", "", "| class | count |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in summary["taxonomy"].items()]
    out += ["", "## Statuses", "", "| status | count |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in summary.get("statuses", {}).items()]
    if summary.get("suspect_speedups"):
        out += ["", "## Suspect speeds (above 10x or below a sanity floor; kept out of the geomean until audited)",
                ""]
        out += [f"- {s['task']} sample {s['sample']}: {_suspect_text(s)}" for s in summary["suspect_speedups"]]
    if summary.get("infrastructure_failures"):
        out += ["", "## Infrastructure failures (not the kernels' fault; not counted)", ""]
        out += [f"- {f['task']} sample {f['sample']}: {f['cause']}" for f in summary["infrastructure_failures"]]
    if summary.get("missing_completions"):
        out += ["", "## Missing from the replay file (not counted)", ""]
        out += [f"- {m['task']} sample {m['sample']}" for m in summary["missing_completions"]]
    failing = [r for r in results if not r.passed]
    if failing:
        out += ["", "## Failing samples", "", "| task | sample | status | class | message |", "|---|---|---|---|---|"]
        for r in sorted(failing, key=lambda r: (r.task, r.sample)):
            msg = r.message.replace("|", "\\|").replace("\n", " ")[:200]
            out.append(f"| {r.task} | {r.sample} | {r.status.value} | "
                       f"{r.error_category.value if r.error_category else ''} | {msg} |")
    if extra:
        out += ["", *extra]
    return "\n".join(out) + "\n"
