"""Benchmark metrics: unbiased pass@k, compile/execution rates per level, speedup, fast_p, taxonomy."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from npukernelbench.result import ErrorCategory, SampleResult, Status

KS = (1, 10, 100)
LEVELS = ("level1", "level2", "level3")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k = 1 - C(n-c, k) / C(n, k) (Chen et al. 2021), numerically stable."""
    if n < 1 or not 0 <= c <= n or k < 1:
        raise ValueError(f"pass@k needs n >= 1, 0 <= c <= n and k >= 1 (got n={n}, c={c}, k={k})")
    if k > n:
        raise ValueError(f"pass@{k} is undefined with only n={n} samples")
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


def ks_for(samples: int) -> tuple[int, ...]:
    return tuple(k for k in KS if k <= samples)


def geomean(values: Sequence[float]) -> float | None:
    vals = [v for v in values if v is not None and v > 0]
    if not vals:
        return None
    return float(math.exp(sum(math.log(v) for v in vals) / len(vals)))


def _group(results: Iterable[SampleResult]) -> dict[str, list[SampleResult]]:
    tasks: dict[str, list[SampleResult]] = defaultdict(list)
    for r in results:
        tasks[r.task].append(r)
    return tasks


def level_summary(results: Sequence[SampleResult], samples: int, fast_p: float = 1.0) -> dict[str, Any]:
    """tasks, samples, cr/er as {"pass@k": x} (no key where tasks exist but none has k samples: an
    interrupted run), speedup_geomean (non-suspect correct samples) and fast_<p> (share of tasks with a
    correct sample faster than p x baseline)."""
    tasks = _group(results)
    ks = ks_for(samples)
    cr: dict[str, float] = {}
    er: dict[str, float] = {}
    for k in ks:
        built = [pass_at_k(len(rs), sum(r.built for r in rs), k) for rs in tasks.values() if len(rs) >= k]
        passed = [pass_at_k(len(rs), sum(r.passed for r in rs), k) for rs in tasks.values() if len(rs) >= k]
        if tasks and not built:            # tasks, none with k samples (an interrupted run): undefined
            continue
        cr[f"pass@{k}"] = round(float(np.mean(built)), 6) if built else 0.0
        er[f"pass@{k}"] = round(float(np.mean(passed)), 6) if passed else 0.0
    speedups = [r.speedup for r in results if r.passed and r.speedup is not None and not r.suspect]
    fast = [any(r.passed and r.speedup is not None and not r.suspect and r.speedup > fast_p for r in rs)
            for rs in tasks.values()]
    sg = geomean(speedups)
    key = f"fast_{fast_p:g}".replace(".", "_")
    return {"tasks": len(tasks), "samples": len(results), "cr": cr, "er": er,
            "speedup_geomean": round(sg, 4) if sg is not None else None,
            key: round(sum(fast) / len(fast), 6) if fast else 0.0}


def taxonomy(results: Iterable[SampleResult]) -> dict[str, int]:
    counts = Counter(r.error_category.value for r in results
                     if r.status is Status.BUILD_ERROR and r.error_category is not None)
    return {c.value: counts.get(c.value, 0) for c in ErrorCategory}


def status_counts(results: Iterable[SampleResult]) -> dict[str, int]:
    counts = Counter(r.status.value for r in results)
    return {s.value: counts.get(s.value, 0) for s in Status}


def summarize(results: Sequence[SampleResult], model: str, toolchain: str, samples: int,
              speed_kind: str | None = None, infrastructure_failures: Sequence[dict[str, Any]] = (),
              missing: Sequence[tuple[str, int]] = ()) -> dict[str, Any]:
    """The summary.json document. A level without results (not selected) is null, not zeros.
    ``infrastructure_failures`` ({task, sample, cause}: samples with no outcome because our machinery
    failed) and ``missing`` (samples the replay file lacks) are listed and counted nowhere else."""
    by_level: dict[str, list[SampleResult]] = defaultdict(list)
    for r in results:
        by_level[f"level{r.level}"].append(r)
    levels: dict[str, dict[str, Any] | None] = {
        name: level_summary(by_level[name], samples) if by_level.get(name) else None for name in LEVELS}
    levels["mean"] = level_summary(list(results), samples) if results else None
    suspects = [{"task": r.task, "sample": r.sample, "speedup": r.speedup,
                 "reason": "; ".join(r.details.get("suspect_reasons", [])) or r.message} for r in results if r.suspect]
    return {"model": model, "toolchain": toolchain, "samples_per_task": samples, "speed_kind": speed_kind,
            "levels": levels, "taxonomy": taxonomy(results), "statuses": status_counts(results),
            "suspect_speedups": suspects,
            "infrastructure_failures": [dict(f) for f in infrastructure_failures],
            "missing_completions": [{"task": task, "sample": sample} for task, sample in missing]}


def label_agreement(results: Iterable[SampleResult]) -> dict[str, Any] | None:
    """For labelled samples (mutants) that failed to build: how often the harness's classification
    equals the label. None when no build error carries a label."""
    labelled = [r for r in results if r.status is Status.BUILD_ERROR and r.details.get("expected_category")]
    if not labelled:
        return None
    agree = sum(1 for r in labelled if r.error_category is not None
                and r.error_category.value == r.details["expected_category"])
    return {"labelled": len(labelled), "agree": agree, "rate": round(agree / len(labelled), 4)}


def pass_at_k_curve(results: Sequence[SampleResult], built: bool = False) -> list[tuple[int, float]]:
    """(k, mean pass@k over tasks) for k = 1 .. the most samples any task has; at each k only tasks with
    at least k samples count (as in :func:`level_summary`). ``built``: compile rate instead of ER."""
    tasks = _group(results)
    most = max((len(rs) for rs in tasks.values()), default=0)
    curve = []
    for k in range(1, most + 1):
        values = [pass_at_k(len(rs), sum(r.built if built else r.passed for r in rs), k)
                  for rs in tasks.values() if len(rs) >= k]
        curve.append((k, float(np.mean(values))))
    return curve
