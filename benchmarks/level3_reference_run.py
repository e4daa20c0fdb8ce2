"""Time of the level-3 reference run: every level-3 case's expert solution checked on its static and
dynamic shapes by the plugin, as a user runs it.

    PYTHONPATH=src python benchmarks/level3_reference_run.py [--workers 2] [--shapes both] [-- extra pytest args]

Target (issue 12): ``pytest benchmark_cases -m level3 -n 2`` finishes in under 10 minutes on an
otherwise idle 2-core machine. Wall time depends on the machine's load, so the CPU seconds of the
run (pytest, its workers, compilers and simulator processes) are printed too, with the wall time an
idle machine with --workers cores would need at least (CPU / workers). CPU seconds of processes run
under bubblewrap are not reaped by this process: pass --rlimits to run them under
NPUKB_CONFINEMENT=rlimits, where every child's CPU time is counted. The run uses a fresh build cache
(cold builds included) unless --warm is given.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 600.0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shapes", default="both", choices=("static", "dynamic", "both"))
    parser.add_argument("--rlimits", action="store_true", help="confine runs with rlimits (CPU time fully counted)")
    parser.add_argument("--warm", action="store_true", help="use NPUKB_CACHE_DIR (or the default cache) as it is")
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        if not args.warm:
            env["NPUKB_CACHE_DIR"] = str(Path(tmp) / "cache")
        if args.rlimits:
            env["NPUKB_CONFINEMENT"] = "rlimits"
        out = Path(tmp) / "run"
        cmd = [sys.executable, "-m", "pytest", "benchmark_cases", "-m", "level3", "--model=reference",
               f"--shapes={args.shapes}", f"--npukb-out={out}", "-p", "no:cacheprovider", "-q", "--no-header",
               *(["-n", str(args.workers)] if args.workers > 1 else []), *args.pytest_args]
        cpu, start = _children_cpu(), time.monotonic()
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        wall, cpu = time.monotonic() - start, _children_cpu() - cpu
        results = [json.loads(line) for line in (out / "results.jsonl").open()] if (out / "results.jsonl").is_file() \
            else []
    statuses = Counter(r.get("status") for r in results)
    print(f"level-3 reference run ({len(results)} tasks, shapes {args.shapes}, {args.workers} workers, "
          f"{'warm' if args.warm else 'cold'} build cache): {wall:.0f} s wall   (target <= {TARGET_S:.0f} s)")
    print(f"  CPU seconds of the run and its children: {cpu:.0f} s"
          + ("" if args.rlimits else " (without the bubblewrap-confined runs: use --rlimits to count them)")
          + f"; on an idle machine with {args.workers} cores at least {cpu / args.workers:.0f} s wall")
    print("  statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    for r in results:
        if r.get("status") != "passed":
            print(f"  {r.get('task')}: {r.get('status')}: {(r.get('message') or '')[:300]}")
    if done.returncode not in (0, 1):
        print(done.stdout[-3000:] + done.stderr[-3000:])
    return 0 if results and statuses.get("passed", 0) == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
