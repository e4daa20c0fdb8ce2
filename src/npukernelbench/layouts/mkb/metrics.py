"""MultiKernelBench's metrics over a run's results: Comp@k, Pass@k and SpeedUp_alpha@k.

Per task with ``n`` samples of which ``c`` meet the criterion, the unbiased estimate
``1 - C(n-c, k) / C(n, k)`` (``metrics.pass_at_k``) of "at least one of k samples meets it", averaged
over the tasks: Comp@k counts samples that compiled (host, pybind and kernel built), Pass@k samples
that matched the reference, SpeedUp_alpha@k samples that matched and ran more than alpha times faster
than the reference. MultiKernelBench measures the reference on the NPU; here the speedup is against an
estimate of it (``layouts.mkb.checker``), so SpeedUp_alpha@k is an estimate too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from npukernelbench.metrics import ks_for, pass_at_k
from npukernelbench.result import SampleResult

BENCHMARK = "multikernelbench"
ALPHAS = (1.0, 1.5, 2.0)
NOTE = ("SpeedUp_alpha@k uses an estimated reference time (the reference's inputs and outputs moved once at HBM "
        "bandwidth plus one launch): MultiKernelBench measures PyTorch on an NPU")


def _rate(tasks: dict[str, list[SampleResult]], k: int, meets: Any) -> float:
    rates = [pass_at_k(len(rs), sum(bool(meets(r)) for r in rs), k) for rs in tasks.values() if len(rs) >= k]
    return round(sum(rates) / len(rates), 6) if rates else 0.0


def mkb_metrics(results: Sequence[SampleResult], samples: int,
                alphas: Sequence[float] = ALPHAS) -> dict[str, Any] | None:
    """The metrics over the results of MultiKernelBench tasks (``details['benchmark']``), or None when the
    run has none."""
    tasks: dict[str, list[SampleResult]] = defaultdict(list)
    for r in results:
        if r.details.get("benchmark") == BENCHMARK:
            tasks[r.task].append(r)
    if not tasks:
        return None
    out: dict[str, Any] = {"tasks": len(tasks)}
    for k in sorted({*ks_for(samples), max(samples, 1)}):       # ours, and k = all samples
        out[f"comp@{k}"] = _rate(tasks, k, lambda r: r.built)
        out[f"pass@{k}"] = _rate(tasks, k, lambda r: r.passed)
        for alpha in alphas:
            out[f"speedup_{alpha:g}@{k}"] = _rate(
                tasks, k, lambda r, a=alpha: r.passed and r.speedup is not None and r.speedup > a)
    scaled = sorted({t for t, rs in tasks.items() if any(r.details.get("inputs_scaled", "no") != "no" for r in rs)})
    out["inputs_scaled_tasks"] = scaled
    out["note"] = NOTE
    return out


def markdown(block: dict[str, Any]) -> list[str]:
    """The report's MultiKernelBench section."""
    keys = [k for k in block if "@" in k]
    lines = ["## MultiKernelBench metrics", "", f"{block['tasks']} MultiKernelBench task(s).", "",
             "| metric | value |", "|---|---|"]
    lines += [f"| {k.replace('speedup_', 'SpeedUp_').replace('comp', 'Comp').replace('pass', 'Pass')} | "
              f"{100 * block[k]:.1f}% |" for k in keys]
    lines += ["", block["note"] + "."]
    if block.get("inputs_scaled_tasks"):
        lines.append(f"Inputs scaled down (--npukb-input-budget) for: {', '.join(block['inputs_scaled_tasks'])}.")
    return lines


def terminal_line(block: dict[str, Any]) -> str:
    shown = ", ".join(f"{k} {100 * v:.1f}%" for k, v in block.items() if "@1" in k and k.endswith("@1"))
    scaled = f"; inputs scaled for {len(block['inputs_scaled_tasks'])} task(s)" if block["inputs_scaled_tasks"] else ""
    return f"MultiKernelBench ({block['tasks']} tasks): {shown} (speedups estimated){scaled}"
