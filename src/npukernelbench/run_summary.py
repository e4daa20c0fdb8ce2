"""The end of a run, shared by the pytest plugin (``RunController.finish``) and the ``npukb`` commands:
results -> summary.json (metrics.summarize, the confinement level, the mutants' label agreement) and
report.md, and the lines the terminal prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from npukernelbench.interruption import Progress
from npukernelbench.result import SampleResult
from npukernelbench.spec import TaskSpec
from npukernelbench.store import RunDir


@dataclass
class RunSummary:
    summary: dict[str, Any]
    results: list[SampleResult]
    extra: list[str] = field(default_factory=list)      # lines printed under the table

    def terminal_lines(self) -> list[str]:
        from npukernelbench.report import terminal_lines

        return terminal_lines(self.summary, self.extra)


def build_summary(results: Sequence[SampleResult], model: str, toolchain: str, samples: int,
                  confinement: str | None, failures: Sequence[dict[str, Any]] = (),
                  missing: Sequence[tuple[str, int]] = (), progress: Progress | None = None, turns: int = 1,
                  turn_results: Sequence[SampleResult] = ()) -> RunSummary:
    """``progress``: how far the run got (default: a finished run of exactly ``results``). A multi-turn
    repair run (``turns`` > 1) adds the per-turn metrics of ``turn_results`` (every turn's result)."""
    from npukernelbench.metrics import label_agreement, summarize
    from npukernelbench.upstream_score import upstream_score

    ordered = sorted(results, key=lambda r: (r.task, r.sample))
    kind = next((r.speed_kind for r in ordered if r.speed_kind), None)
    summary = summarize(ordered, model, toolchain, samples, kind, infrastructure_failures=failures, missing=missing)
    summary["confinement"] = confinement
    summary["socs"] = socs_of(ordered)
    summary["upstream_score"] = upstream_score(ordered)
    summary.update((progress or Progress(len(ordered), len(ordered), interrupted=False)).to_json())
    out = RunSummary(summary, ordered)
    if turns > 1:
        from npukernelbench.turn_metrics import turn_lines, turn_summary

        summary["multi_turn"] = turn_summary(turn_results, samples, turns)
        out.extra.extend(turn_lines(summary["multi_turn"]))
    for key, block, line in _layout_blocks(ordered, samples):
        summary[key] = block
        out.extra.append(line)
    agreement = label_agreement(ordered)
    if agreement is not None:
        summary["mutant_label_agreement"] = agreement
        out.extra.append(f"mutant label agreement (build errors): {agreement['agree']}/{agreement['labelled']} = "
                         f"{100 * agreement['rate']:.1f}%")
    return out


def socs_of(results: Sequence[SampleResult]) -> list[str]:
    """The SoC profiles the results were checked on (``details["soc"]``, else the cost's ``soc``)."""
    found = set()
    for r in results:
        soc = r.details.get("soc") or (r.details.get("cost") or {}).get("soc")
        if isinstance(soc, str) and soc:
            found.add(soc)
    return sorted(found)


def run_socs(specs: Sequence[TaskSpec], chosen: str | None) -> list[str]:
    """The SoC profiles a run of ``specs`` simulates (``--npukb-soc`` ``chosen``, else each task's own)."""
    from npukernelbench.modes import task_soc
    from npukernelbench.soc_profiles import DEFAULT_SOC

    return sorted({task_soc(spec, chosen) or DEFAULT_SOC for spec in specs})


def _layout_blocks(results: Sequence[SampleResult], samples: int) -> list[tuple[str, dict[str, Any], str]]:
    """What layouts scored by another benchmark add (``Layout.summary_block``, where a layout has it): a
    summary.json key, its metrics and the line printed under the table and in report.md."""
    from npukernelbench.layouts import all_layouts

    blocks = []
    for layout in all_layouts():
        hook = getattr(layout, "summary_block", None)
        found = hook(results, samples) if hook is not None else None
        if found is not None:
            blocks.append(found)
    return blocks


def write_summary(run: RunDir, done: RunSummary) -> None:
    """summary.json and report.md into the run directory (raises OSError)."""
    from npukernelbench.report import markdown

    run.path.mkdir(parents=True, exist_ok=True)
    run.write_summary(done.summary)
    run.write_report(markdown(done.summary, done.results, done.extra))
