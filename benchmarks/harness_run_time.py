"""Run time and reliability of the main job: the expert solutions of every benchmark case through the
plugin, as a user runs it (``pytest benchmark_cases -n 2``), each run with a fresh build cache.

    PYTHONPATH=src python benchmarks/harness_run_time.py [--runs 5] [--warm] [--workers 2] [-- extra pytest args]
    PYTHONPATH=src python benchmarks/harness_run_time.py --runs 1 --warm -- -m level1

For every run it prints the wall time, the first-time set-up (simulator runtime and precompiled
headers, the plugin's "toolchain set up in N s" line), the CPU seconds of the run and its children,
CR@1 / ER@1 per level, the statuses and the infrastructure failures; ``--warm`` adds one run that
reuses the last run's build cache. Every run must give CR = ER = 100% with no infrastructure failure
(issue: "five times in a row with a fresh cache"); the exit status is 1 otherwise.

CPU seconds of processes confined by bubblewrap are not reaped by this process (pass --rlimits to run
under NPUKB_CONFINEMENT=rlimits, where every child's CPU time is counted); the wall time depends on
the machine's load, so an idle machine's bound (CPU / workers) is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SET_UP = re.compile(r"toolchain set up in (\d+) s")


@dataclass(frozen=True)
class RunFigures:
    label: str
    wall_s: float
    cpu_s: float
    set_up_s: int | None
    levels: dict
    statuses: Counter
    infrastructure: list
    failed: list
    returncode: int

    def perfect(self) -> bool:
        rates = [v for lv in self.levels.values() if lv for v in (lv["cr"]["pass@1"], lv["er"]["pass@1"])]
        return bool(rates) and all(r == 1.0 for r in rates) and not self.infrastructure and not self.failed


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(label: str, cache: Path, out: Path, args: argparse.Namespace) -> RunFigures:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NPUKB_CACHE_DIR": str(cache)}
    if args.rlimits:
        env["NPUKB_CONFINEMENT"] = "rlimits"
    cmd = [sys.executable, "-m", "pytest", "benchmark_cases", "--model=reference", f"--npukb-out={out}",
           "-p", "no:cacheprovider", "-q", "--no-header",
           *(["-n", str(args.workers)] if args.workers > 1 else []), *args.pytest_args]
    cpu, start = _children_cpu(), time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.monotonic() - start, _children_cpu() - cpu
    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    results = [json.loads(line) for line in (out / "results.jsonl").open()] \
        if (out / "results.jsonl").is_file() else []
    set_up = SET_UP.search(done.stdout + done.stderr)
    if not summary:
        print(done.stdout[-3000:] + done.stderr[-3000:])
    return RunFigures(label=label, wall_s=wall, cpu_s=cpu, set_up_s=int(set_up.group(1)) if set_up else None,
                      levels={k: v for k, v in summary.get("levels", {}).items() if k != "mean"},
                      statuses=Counter(r.get("status") for r in results),
                      infrastructure=summary.get("infrastructure_failures", []),
                      failed=[r for r in results if r.get("status") != "passed"], returncode=done.returncode)


def report(fig: RunFigures, workers: int, rlimits: bool) -> None:
    set_up = f"{fig.set_up_s} s" if fig.set_up_s is not None else "none (cache warm)"
    print(f"{fig.label}: {fig.wall_s:.0f} s wall, first-time set-up {set_up}, CPU {fig.cpu_s:.0f} s"
          + ("" if rlimits else " (bubblewrap-confined runs not counted: --rlimits)")
          + f", idle-machine bound {fig.cpu_s / workers:.0f} s; pytest exit {fig.returncode}")
    for level, lv in sorted(fig.levels.items()):
        if lv is None:
            print(f"  {level}: not selected")
            continue
        print(f"  {level}: {lv['tasks']} tasks  CR@1 {100 * lv['cr']['pass@1']:.1f}%  "
              f"ER@1 {100 * lv['er']['pass@1']:.1f}%")
    print("  statuses: " + (", ".join(f"{k} {v}" for k, v in sorted(fig.statuses.items())) or "none"))
    print(f"  infrastructure failures: {len(fig.infrastructure)}")
    for f in fig.infrastructure[:10]:
        print(f"    {f.get('task')}[s{f.get('sample')}]: {f.get('cause')}")
    for r in fig.failed[:20]:
        print(f"    {r.get('task')}: {r.get('status')}: {(r.get('message') or '')[:300]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs, each with a fresh build cache")
    parser.add_argument("--warm", action="store_true", help="one more run on the last run's build cache")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rlimits", action="store_true", help="confine runs with rlimits (CPU time fully counted)")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --), e.g. -m level1")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    figures: list[RunFigures] = []
    with tempfile.TemporaryDirectory(prefix="npukb-runtime-") as tmp:
        for i in range(args.runs):
            cache = Path(tmp) / f"cache{i}"
            figures.append(run_once(f"run {i + 1}/{args.runs} (fresh cache)", cache, Path(tmp) / f"out{i}", args))
            report(figures[-1], args.workers, args.rlimits)
        if args.warm:
            figures.append(run_once("warm run (cache of the last run)", cache, Path(tmp) / "out-warm", args))
            report(figures[-1], args.workers, args.rlimits)
    perfect = sum(f.perfect() for f in figures)
    print(f"runs with CR = ER = 100% and no infrastructure failure: {perfect}/{len(figures)}")
    return 0 if perfect == len(figures) else 1


if __name__ == "__main__":
    sys.exit(main())
