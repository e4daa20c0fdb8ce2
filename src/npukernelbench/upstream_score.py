"""Upstream NPUKernelBench's own score, computed beside our pass@k (``summary.json["upstream_score"]``).

Upstream counts one item per (task, CSV row, sample): in its static-shape modes every row is its own
prompt, checked on that row only. A level's figure is the share of its items that passed (pooled over
the level's tasks, so a task with more rows weighs more), and the overall score is the weighted sum of
the levels present with weights 0.2 / 0.3 / 0.5 for levels 1 / 2 / 3: a level the run does not hold
adds nothing (it is not renormalised). Upstream prints that sum as a fraction; here every figure is in
percent (x 100).

Our items: in the upstream modes (``--npukb-mode kernel-only|full``) a result is one row
(``<task>#<case_id>``, :func:`npukernelbench.modes.base_task_id` maps it back) and counts 1 item; in
project mode a result is one completion checked on every static case, and counts each case
(``details["cases"]``: passed / total, written by ``evaluate``). A result without that record (a
run directory from before it existed, or a dynamic-shapes-only run) counts as one item, passed or not.
Samples without an outcome (infrastructure failures, missing completions) count nowhere, as in the
rest of the summary, and neither do results of another benchmark's tasks (``details["benchmark"]``,
MultiKernelBench), which have their own metrics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from npukernelbench.modes import base_task_id
from npukernelbench.result import SampleResult

LEVEL_WEIGHTS: Mapping[str, float] = {"level1": 0.2, "level2": 0.3, "level3": 0.5}

NOTE = ("upstream NPUKernelBench's score: per (task, row, sample) item, a level's share of items passed x 100 "
        "(pooled over its tasks), overall = sum of weight x level score over the levels present (an absent level "
        "adds 0; upstream prints overall / 100). Comparable with upstream's figure only in --npukb-mode kernel-only "
        "or full on the same tasks, rows and samples per row (upstream checks real NPUs, we the simulator); in "
        "project mode one completion is checked on every row.")


@dataclass
class _Tally:
    level: str
    passed: int = 0
    cases: int = 0
    samples: int = 0

    def add(self, passed: int, cases: int) -> None:
        self.passed += passed
        self.cases += cases
        self.samples += 1

    def score(self) -> float:
        return round(100 * self.passed / self.cases, 4) if self.cases else 0.0


def case_counts(result: SampleResult) -> tuple[int, int] | None:
    """(cases passed, cases) of one result from its per-case record, or None when it has none."""
    cases = result.details.get("cases")
    if not isinstance(cases, Mapping):
        return None
    passed, total = cases.get("passed"), cases.get("total")
    if not isinstance(passed, int) or not isinstance(total, int) or total < 1 or not 0 <= passed <= total:
        return None
    return passed, total


def has_case_record(results: Iterable[SampleResult]) -> bool:
    """Whether some result of this benchmark carries its per-case record: runs without one (made before
    the record existed, dynamic shapes only, another benchmark's tasks only) have no upstream score of
    their own to report beside pass@k, and the CSV and HTML reports leave it out for them."""
    return any(case_counts(r) is not None for r in results if not r.details.get("benchmark"))


def upstream_score(results: Iterable[SampleResult]) -> dict[str, Any] | None:
    """The ``upstream_score`` block of summary.json (None without results): per task, per level and
    overall scores in percent, the weights, how items were counted and a note on comparability."""
    tasks: dict[str, _Tally] = {}
    whole = other = 0
    rows = False
    for r in results:
        if r.details.get("benchmark"):      # a task of another benchmark (MultiKernelBench): its own metrics
            other += 1
            continue
        task = base_task_id(r.task)
        rows = rows or task != r.task
        counts = case_counts(r)
        if counts is None:
            whole += 1
            counts = (int(r.passed), 1)
        tasks.setdefault(task, _Tally(f"level{r.level}")).add(*counts)
    if not tasks:
        return None
    levels: dict[str, dict[str, Any]] = {}
    for name in sorted({t.level for t in tasks.values()}):
        total = _Tally(name)
        members = [t for t in tasks.values() if t.level == name]
        for t in members:
            total.passed, total.cases, total.samples = (total.passed + t.passed, total.cases + t.cases,
                                                        total.samples + t.samples)
        levels[name] = {"tasks": len(members), "cases_passed": total.passed, "cases": total.cases,
                        "score": total.score(), "weight": LEVEL_WEIGHTS.get(name)}
    weighted = [name for name in levels if name in LEVEL_WEIGHTS]
    overall = sum(LEVEL_WEIGHTS[name] * levels[name]["score"] for name in weighted)
    return {
        "overall": round(overall, 4) if weighted else None,
        "max_possible": round(100 * sum(LEVEL_WEIGHTS[name] for name in weighted), 4),
        "weights": dict(LEVEL_WEIGHTS),
        "unweighted_levels": [name for name in levels if name not in LEVEL_WEIGHTS],
        "items": "one per row result (upstream mode)" if rows else "one per static case of each sample",
        "results_without_case_record": whole,
        "other_benchmark_results": other,
        "levels": levels,
        "tasks": {name: {"level": t.level, "samples": t.samples, "cases_passed": t.passed, "cases": t.cases,
                         "score": t.score()} for name, t in sorted(tasks.items())},
        "note": NOTE,
    }


def score_line(block: Mapping[str, Any] | None) -> str | None:
    """One terminal line: the overall score, out of what the levels present allow, and each level."""
    if not block:
        return None
    overall = block.get("overall")
    head = "-" if overall is None else f"{overall:.1f}"
    parts = [f"{name} {lv['score']:.1f} ({lv['cases_passed']}/{lv['cases']} cases"
             + (f", weight {lv['weight']:g})" if lv.get("weight") is not None else ", not weighted)")
             for name, lv in block["levels"].items()]
    return (f"upstream score (levels weighted {_weights(block)}): {head} of {block['max_possible']:g} possible; "
            + "; ".join(parts))


def _weight(level: Mapping[str, Any]) -> str:
    return "-" if level.get("weight") is None else f"{level['weight']:g}"


def _weights(block: Mapping[str, Any]) -> str:
    return "/".join(f"{w:g}" for w in block["weights"].values())


def markdown_lines(block: Mapping[str, Any] | None) -> list[str]:
    """The report.md section: the overall score, the level table and the per-task table."""
    if not block:
        return []
    overall = block.get("overall")
    out = ["## Upstream NPUKernelBench score", "",
           f"- overall: **{'-' if overall is None else f'{overall:.2f}'}** of {block['max_possible']:g} possible "
           f"(levels weighted {_weights(block)})",
           f"- items: {block['items']}"]
    if block.get("results_without_case_record"):
        out.append(f"- {block['results_without_case_record']} result(s) without a per-case record counted as one "
                   "item each")
    out += [f"- {block['note']}", "", "| level | tasks | cases passed | cases | score | weight |",
            "|---|---|---|---|---|---|"]
    out += [f"| {name} | {lv['tasks']} | {lv['cases_passed']} | {lv['cases']} | {lv['score']:.2f} | "
            f"{_weight(lv)} |" for name, lv in block["levels"].items()]
    out += ["", "| task | level | samples | cases passed | cases | score |", "|---|---|---|---|---|---|"]
    out += [f"| {name} | {t['level']} | {t['samples']} | {t['cases_passed']} | {t['cases']} | {t['score']:.2f} |"
            for name, t in block["tasks"].items()]
    return out
