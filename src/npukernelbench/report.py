"""Reports: the terminal table shaped like the paper's Table 2 (+ taxonomy) and report.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npukernelbench.metrics import LEVELS, ks_for
from npukernelbench.result import SampleResult


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def table_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    ks = ks_for(summary["samples_per_task"])
    kind = summary.get("speed_kind") or "estimated"
    header = ["level", "tasks", "samples"] + [f"CR@{k}" for k in ks] + [f"ER@{k}" for k in ks] + \
        [f"speedup ({kind})", "fast_1"]
    rows = []
    for name in (*LEVELS, "mean"):
        lv = summary["levels"][name]
        if lv["tasks"] == 0 and name != "mean":
            continue
        sg = lv["speedup_geomean"]
        rows.append([name, str(lv["tasks"]), str(lv["samples"])] +
                    [_pct(lv["cr"].get(f"pass@{k}")) for k in ks] + [_pct(lv["er"].get(f"pass@{k}")) for k in ks] +
                    ["-" if sg is None else f"{sg:.2f}x", _pct(lv.get("fast_1"))])
    return header, rows


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]
    line = "  ".join(h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    out = [line, "-" * len(line)]
    for r in rows:
        out.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    return out


def terminal_lines(summary: dict[str, Any], extra: Sequence[str] = ()) -> list[str]:
    """The benchmark table (CR/ER in percent, pass@k) and the error taxonomy."""
    header, rows = table_rows(summary)
    lines = [f"model: {summary['model']}   toolchain: {summary['toolchain']}   "
             f"samples/task: {summary['samples_per_task']}   confinement: {summary.get('confinement') or 'unknown'}"]
    lines += _grid(header, rows)
    tax = summary["taxonomy"]
    lines.append("error taxonomy (build errors): " + ", ".join(f"{k} {v}" for k, v in tax.items()))
    statuses = summary.get("statuses", {})
    lines.append("statuses: " + ", ".join(f"{k} {v}" for k, v in statuses.items() if v))
    for s in summary.get("suspect_speedups", []):
        lines.append(f"suspect speed (kept out of the geomean, audit it): {s['task']}[s{s['sample']}] "
                     f"{_suspect_text(s)}")
    lines.extend(extra)
    return lines


def _suspect_text(s: dict[str, Any]) -> str:
    speed = f"{s['speedup']}x" if s.get("speedup") is not None else "no speedup"
    return f"{speed} ({s['reason']})" if s.get("reason") else speed


def markdown(summary: dict[str, Any], results: Sequence[SampleResult], extra: Sequence[str] = ()) -> str:
    header, rows = table_rows(summary)
    out = ["# NPUKernelBench report", "", f"- model: `{summary['model']}`", f"- toolchain: `{summary['toolchain']}`",
           f"- samples per task: {summary['samples_per_task']}",
           f"- confinement of candidate builds and runs: {summary.get('confinement') or 'unknown'}",
           f"- speed: {summary.get('speed_kind') or 'estimated'} (geometric mean of baseline/candidate time over "
           "correct, non-suspect samples)", "", "CR and ER are unbiased pass@k in percent.", "",
           "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out += ["", "## Error taxonomy (build errors)", "", "| class | count |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in summary["taxonomy"].items()]
    out += ["", "## Statuses", "", "| status | count |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in summary.get("statuses", {}).items()]
    if summary.get("suspect_speedups"):
        out += ["", "## Suspect speeds (above 10x or below a sanity floor; kept out of the geomean until audited)",
                ""]
        out += [f"- {s['task']} sample {s['sample']}: {_suspect_text(s)}" for s in summary["suspect_speedups"]]
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
