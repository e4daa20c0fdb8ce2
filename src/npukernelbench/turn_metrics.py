"""Metrics of a multi-turn repair run (``--npukb-turns=N``): CR and ER pass@k after each turn, and
the turn each sample and each task first passed.

"After turn t" means every sample's outcome at its last turn <= t (an episode that ended earlier
keeps its last outcome, a passing one included), so ER after turn 1 is the one-turn run's ER and ER
after the last turn is the run's final ER."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npukernelbench.result import SampleResult


def after_turn(results: Sequence[SampleResult], turn: int) -> list[SampleResult]:
    """Each sample's result at its last turn <= ``turn``."""
    latest: dict[tuple[str, int], SampleResult] = {}
    for r in sorted(results, key=lambda r: r.turn or 1):
        if (r.turn or 1) <= turn:
            latest[(r.task, r.sample)] = r
    return sorted(latest.values(), key=lambda r: (r.task, r.sample))


def first_passing_turns(results: Sequence[SampleResult]) -> dict[tuple[str, int], int]:
    """(task, sample) -> the first turn that passed (samples that never passed are absent)."""
    first: dict[tuple[str, int], int] = {}
    for r in results:
        if r.passed:
            key = (r.task, r.sample)
            first[key] = min(first.get(key, r.turn or 1), r.turn or 1)
    return first


def turn_summary(results: Sequence[SampleResult], samples: int, turns: int) -> dict[str, Any]:
    """summary.json's ``multi_turn`` section."""
    from npukernelbench.metrics import level_summary

    by_turn = {}
    for t in range(1, turns + 1):
        now = after_turn(results, t)
        level = level_summary(now, samples) if now else {"cr": {}, "er": {}}
        by_turn[str(t)] = {"cr": level["cr"], "er": level["er"], "passed": sum(r.passed for r in now),
                           "samples": len(now)}
    first = first_passing_turns(results)
    tasks: dict[str, int] = {}
    for (task, _), t in first.items():
        tasks[task] = min(tasks.get(task, t), t)
    samples_seen = {(r.task, r.sample) for r in results}
    return {"turns": turns, "by_turn": by_turn,
            "first_passing_turn": {str(t): sum(1 for v in first.values() if v == t) for t in range(1, turns + 1)},
            "never_passed": len(samples_seen) - len(first),
            "task_first_passing_turn": dict(sorted(tasks.items()))}


def turn_lines(section: dict[str, Any]) -> list[str]:
    """The lines under the terminal table and in report.md."""
    er = ", ".join(f"after turn {t}: " + " ".join(f"{k} {v:.3f}" for k, v in row["er"].items())
                   for t, row in section["by_turn"].items())
    first = ", ".join(f"turn {t}: {n}" for t, n in section["first_passing_turn"].items())
    return [f"multi-turn repair ({section['turns']} turns): ER {er}",
            f"first passing turn (samples): {first}; never passed: {section['never_passed']}"]


def turn_table(section: dict[str, Any], results: Sequence[SampleResult],
               ks: Sequence[int]) -> tuple[list[str], list[list[str]]]:
    """The per-turn table of the HTML report, from a ``turn_summary`` ``section`` of every turn's
    ``results``: per turn the samples answered at that turn, the samples passed after it (of all samples,
    with their share in percent), CR and ER pass@k after it (percent; ``-`` where undefined) and how many
    samples that turn fixed (failed at every earlier turn, passed at this one; ``-`` at turn 1)."""
    answered = {t: 0 for t in range(1, section["turns"] + 1)}
    for r in results:
        answered[r.turn or 1] = answered.get(r.turn or 1, 0) + 1

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}"

    header = (["turn", "answered", "passed after", "pass rate"] + [f"CR@{k}" for k in ks] +
              [f"ER@{k}" for k in ks] + ["fixed"])
    rows = []
    for t, row in section["by_turn"].items():
        share = row["passed"] / row["samples"] if row["samples"] else None
        fixed = "-" if t == "1" else str(section["first_passing_turn"].get(t, 0))
        rows.append([t, str(answered.get(int(t), 0)), f"{row['passed']}/{row['samples']}", pct(share)] +
                    [pct(row["cr"].get(f"pass@{k}")) for k in ks] + [pct(row["er"].get(f"pass@{k}")) for k in ks] +
                    [fixed])
    return header, rows
