"""Where the evaluation time goes: the expert answers of a task tree evaluated with every phase timed.

    PYTHONPATH=src python benchmarks/eval_speed.py [TASKS ...] [--jobs N] [--rows N] [--seeds N]
        [--shapes static|dynamic|both] [--speed] [--level N] [-k SUBSTR] [--data-seed N] [--json FILE]
        [--mutants N]

TASKS: task trees or task folders of either layout (default: our ``benchmark_cases``). Every task
that ships an expert answer is evaluated with it as the candidate (one sample, ``EvalOptions(
profile=True)``: ``npukernelbench.phase_clock``), ``--jobs`` worker processes at a time. Printed: one
line per task (wall and CPU seconds, its three largest phases), then per phase the wall and CPU
seconds summed over all tasks, the phases grouped as the evaluation's stages (static checks, host
build, kernel build, binding build, reference, input generation, simulator run, comparison, process
start-up and file I/O), the distribution of per-task wall time (median, p95, max), and the peak
resident memory of a worker and of a simulator process.

CPU seconds of a phase are this worker's plus the child processes it reaped. Children confined by
bubblewrap are not reaped by the worker (their CPU is missing from build phases there): the simulator
run's CPU is the launcher's own report (``run:launcher_cpu``); run with ``NPUKB_CONFINEMENT=rlimits``
to count the compilers' CPU too. Wall times depend on the machine's load: quote them with the load.
The first evaluation on a machine also builds the simulator's runtime (printed as its own line, not
counted in any task).

``--mutants N`` measures the RL shape instead: N distinct completions, the mutants of the selected
tasks' expert answers (``npukernelbench.generators.mutants``: a policy's typical mistakes, some
unchanged), spread round-robin over the tasks, each evaluated on its first static case with one seed
unless ``--rows`` / ``--seeds`` say otherwise. The builds go to a fresh cache (the runtime and
precompiled headers are built there before the clock starts), so that no completion is a cache hit
from an earlier run; printed: evaluations per second over the whole run, and the verdicts.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The evaluation's stages, each the phases (phase_clock names) it is made of; a phase named
# ``baseline:...`` (the expert solution's own build and run for the speed-up) counts as "baseline".
STAGES: dict[str, tuple[str, ...]] = {
    "static checks": ("static_checks",),
    "host build": ("build:host", "build:describe", "describe"),
    "kernel build": ("build:kernel", "build:device_check", "build:host_check", "build:link", "build"),
    "build cache hits": ("build:cached",),
    "binding build": ("binding",),
    "reference": ("reference",),
    "input generation": ("inputs",),
    "simulator run": ("run:launcher_setup", "run:launcher_load", "run:launcher_host", "run:launcher_memory",
                      "run:launcher_kernel", "run:launcher_write", "run:launcher_cpu"),
    "comparison": ("compare",),
    "task model code": ("model",),
    "process start-up and file I/O": ("run",),
}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = max(0, min(len(ordered) - 1, int(round(q * (len(ordered) - 1)))))
    return ordered[k]


def evaluate_task(folder: str, rows: int | None, seeds: int | None, shapes: str, speed: bool,
                  data_seed: int, mutant: int | None = None) -> dict[str, Any]:
    """One task's expert answer (or its mutant number ``mutant``), profiled (runs in a worker process)."""
    import resource

    from npukernelbench.cases import load_case
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.spec import SpecError
    from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

    try:
        spec = load_case(Path(folder))
    except SpecError as exc:
        return {"task": folder, "error": f"not collected: {exc}"}
    if spec.solution is None:
        return {"task": spec.case_id, "error": None, "answer": False}
    if rows is not None:
        spec = dataclasses.replace(spec, cases=spec.cases[:rows])
    files, label = dict(spec.solution), "expert answer"
    if mutant is not None:
        from npukernelbench.generators.mutants import mutate

        files, meta = mutate(files, spec.kernel, spec.case_id, mutant, data_seed)
        label = str(meta.get("mutation", ""))
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu0 = time.process_time() + child.ru_utime + child.ru_stime
    wall0 = time.monotonic()
    try:
        result = evaluate(spec, Completion(spec.case_id, mutant or 0, files=files), AscendCSimToolchain(),
                          EvalOptions(shapes=shapes, seeds=seeds, speed=speed, data_seed=data_seed, profile=True))
    except Exception as exc:             # noqa: BLE001 - reported per task, the run goes on
        return {"task": spec.case_id, "answer": True, "error": f"{type(exc).__name__}: {exc}"}
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"task": spec.case_id, "answer": True, "error": None, "status": result.status.value, "label": label,
            "wall": time.monotonic() - wall0,
            "cpu": time.process_time() + child.ru_utime + child.ru_stime - cpu0,
            "phases": result.details.get("phases", {}), "shapes_checked": result.shapes_checked}


def _with_answers(folders: list[Path]) -> list[Path]:
    from npukernelbench.cases import load_case
    from npukernelbench.spec import SpecError

    kept = []
    for folder in folders:
        try:
            if load_case(folder).solution is not None:
                kept.append(folder)
        except SpecError:
            continue
    return kept


def _warm_up(folders: list[Path]) -> float:
    """Build what every evaluation shares (the simulator runtime, the precompiled headers of the
    answers' header sets) once, before the clock starts: the first use on a machine."""
    from npukernelbench.cases import load_case
    from npukernelbench.spec import SpecError
    from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

    start = time.monotonic()
    toolchain = AscendCSimToolchain()
    reason = toolchain.unavailable_reason()
    if reason:
        raise SystemExit(f"eval_speed: ascendc-sim is unavailable: {reason}")
    specs = []
    for folder in folders:
        try:
            specs.append(load_case(folder))
        except SpecError:
            continue                       # reported when its worker evaluates it
    toolchain.prepare(specs, lambda line: print(line, flush=True))
    return time.monotonic() - start


def report(records: list[dict[str, Any]], seconds: float, jobs: int) -> None:
    done = [r for r in records if r.get("error") is None and r.get("answer")]
    failed = [r for r in records if r.get("error")]
    print(f"\n{len(done)} answers evaluated, {len(failed)} not evaluated, {seconds:.0f} s wall with {jobs} "
          f"job(s); load average {os.getloadavg()[0]:.1f}")
    for r in failed:
        print(f"  not evaluated: {r['task']}: {r['error'][:200]}")
    if not done:
        return
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for r in done:
        for name, value in r["phases"].get("wall", {}).items():
            wall[name] = wall.get(name, 0.0) + value
        for name, value in r["phases"].get("cpu", {}).items():
            cpu[name] = cpu.get(name, 0.0) + value
    total_wall = sum(r["wall"] for r in done)
    total_cpu = sum(r["cpu"] for r in done)
    print(f"\nper phase, summed over tasks (task wall {total_wall:.1f} s, task CPU {total_cpu:.1f} s)")
    print(f"{'phase':36s} {'wall s':>9s} {'wall %':>7s} {'CPU s':>9s}")
    for name in sorted(set(wall) | set(cpu), key=lambda n: (-wall.get(n, 0.0), -cpu.get(n, 0.0))):
        share = 100 * wall.get(name, 0.0) / max(total_wall, 1e-9)
        print(f"{name:36s} {wall.get(name, 0.0):9.2f} {share:6.1f}% {cpu.get(name, 0.0):9.2f}")
    print("\nper stage")
    print(f"{'stage':36s} {'wall s':>9s} {'wall %':>7s} {'CPU s':>9s}")
    grouped: dict[str, tuple[float, float]] = {}
    for name in set(wall) | set(cpu):
        stage = "baseline (expert solution for the speed-up)" if name.startswith("baseline:") else next(
            (s for s, names in STAGES.items() if name in names), "other")
        w, c = grouped.get(stage, (0.0, 0.0))
        grouped[stage] = (w + wall.get(name, 0.0), c + cpu.get(name, 0.0))
    unaccounted = total_wall - sum(wall.values())
    grouped["outside any phase"] = (max(unaccounted, 0.0), 0.0)
    for stage, (w, c) in sorted(grouped.items(), key=lambda kv: -kv[1][0]):
        print(f"{stage:36s} {w:9.2f} {100 * w / max(total_wall, 1e-9):6.1f}% {c:9.2f}")
    walls = [r["wall"] for r in done]
    print(f"\nper-task wall: median {statistics.median(walls):.2f} s, p95 {_percentile(walls, 0.95):.2f} s, "
          f"max {max(walls):.2f} s ({max(done, key=lambda r: r['wall'])['task']})")
    worker = max(r["phases"].get("figures", {}).get("worker_peak_rss_kb", 0) for r in done)
    sim = max(r["phases"].get("figures", {}).get("simulator_peak_rss_kb", 0) for r in done)
    print(f"peak RSS: worker {worker / 1024:.0f} MiB, simulator process {sim / 1024:.0f} MiB")
    heaviest = max(done, key=lambda r: r["phases"].get("figures", {}).get("worker_peak_rss_kb", 0))
    raised = {name.split(":", 1)[1]: kb for name, kb in heaviest["phases"].get("figures", {}).items()
              if name.startswith("peak_rss_raised_kb:")}
    if raised:
        print(f"  phases that raised the worker's peak ({heaviest['task']}; the rest is the worker's own "
              "start-up and imports): " + ", ".join(
                  f"{name} {kb / 1024:.0f} MiB" for name, kb in sorted(raised.items(), key=lambda kv: -kv[1])
                  if kb >= 1024))
    statuses: dict[str, int] = {}
    for r in done:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    print("statuses: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tasks", type=Path, nargs="*", default=[ROOT / "benchmark_cases"],
                    help="task trees or task folders (default: benchmark_cases)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--rows", type=int, default=None, help="only the first N static cases (CSV rows) per task")
    ap.add_argument("--seeds", type=int, default=None, help="input seeds per case (default: the task's, >= 3)")
    ap.add_argument("--shapes", choices=("static", "dynamic", "both"), default="static")
    ap.add_argument("--speed", action="store_true", help="also measure the speed-up (expert solution runs)")
    ap.add_argument("--level", type=int, action="append", help="only these levels (repeatable)")
    ap.add_argument("-k", dest="keyword", default="", help="only tasks whose path contains this text")
    ap.add_argument("--data-seed", type=int, default=0, help="seed of the input data (default 0)")
    ap.add_argument("--json", type=Path, default=None, help="write every task's record to this file")
    ap.add_argument("--mutants", type=int, default=None,
                    help="RL shape: evaluate N distinct mutants of the tasks' answers (first case, one seed, fresh "
                         "build cache) and print evaluations per second")
    args = ap.parse_args(argv)
    if args.jobs < 1 or (args.rows is not None and args.rows < 1) or (args.seeds is not None and args.seeds < 1) \
            or (args.mutants is not None and args.mutants < 1):
        ap.error("--jobs, --rows, --seeds and --mutants must be at least 1")

    from npukernelbench.cases import find_case_dirs

    folders: list[Path] = []
    for tree in args.tasks:
        if not tree.exists():
            print(f"eval_speed: {tree} does not exist", file=sys.stderr)
            return 2
        folders.extend(find_case_dirs(tree))
    selected = [f for f in folders
                if (not args.keyword or args.keyword.lower() in f.as_posix().lower())
                and (not args.level or any(f"level{n}" in f.as_posix() for n in args.level))]
    if not selected:
        print("eval_speed: no task folders selected", file=sys.stderr)
        return 2
    jobs: list[tuple[Path, int | None]] = [(f, None) for f in selected]
    if args.mutants is not None:
        args.rows = 1 if args.rows is None else args.rows
        args.seeds = 1 if args.seeds is None else args.seeds
        selected = _with_answers(selected)
        if not selected:
            print("eval_speed: no selected task ships an expert answer to mutate", file=sys.stderr)
            return 2
        jobs = [(selected[i % len(selected)], i // len(selected)) for i in range(args.mutants)]
        os.environ["NPUKB_CACHE_DIR"] = tempfile.mkdtemp(prefix="eval-speed-cache-")
        print(f"eval_speed: {args.mutants} mutants of {min(len(selected), args.mutants)} task(s), fresh build cache "
              f"{os.environ['NPUKB_CACHE_DIR']}", flush=True)
    print(f"eval_speed: simulator runtime and precompiled headers ready in {_warm_up(selected):.0f} s", flush=True)
    records: list[dict[str, Any]] = []
    start = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(evaluate_task, str(f), args.rows, args.seeds, args.shapes, args.speed,
                               args.data_seed, mutant): f for f, mutant in jobs}
        for future in as_completed(futures):
            record = future.result()
            records.append(record)
            if not record.get("answer") and not record.get("error"):
                continue
            if record.get("error"):
                line = f"error: {record['error'][:120]}"
            else:
                top = sorted(record["phases"].get("wall", {}).items(), key=lambda kv: -kv[1])[:3]
                line = (f"{record['status']:13s} {record['wall']:7.2f} s wall {record['cpu']:7.2f} s CPU  " +
                        ", ".join(f"{k} {v:.2f}" for k, v in top))
            elapsed = time.monotonic() - start
            eta = elapsed / len(records) * (len(jobs) - len(records))
            print(f"[{len(records)}/{len(jobs)}, ETA {eta:.0f} s] {record['task']}: {line}", flush=True)
    records.sort(key=lambda r: r["task"])
    seconds = time.monotonic() - start
    report(records, seconds, args.jobs)
    if args.mutants is not None:
        shutil.rmtree(os.environ["NPUKB_CACHE_DIR"], ignore_errors=True)
        evaluated = sum(1 for r in records if r.get("answer") and not r.get("error"))
        print(f"RL shape: {evaluated} distinct completions in {seconds:.1f} s wall with {args.jobs} job(s): "
              f"{evaluated / max(seconds, 1e-9):.2f} evaluations per second")
    if args.json:
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
