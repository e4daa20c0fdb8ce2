"""How far the expert answers of a public NPUKernelBench task tree get on ascendc-sim, layer by layer.

    python benchmarks/public_npukb.py TASKS [--jobs N] [--level 1 --level 2] [-k SUBSTR] [--seeds N]
                                            [--rows N] [--shapes static|dynamic|both] [--shape-examples N]
                                            [--data-seed N] [--min-pass N] [--json FILE]

Every task under TASKS is collected; every task that ships an expert answer (``answer/0/``) is
evaluated with that answer as the candidate, static shapes (``--shapes dynamic|both``: rows drawn
from the CSV rows too), exactly as ``pytest TASKS --model=reference --shapes static`` does (one
sample, no speed measurement). Printed: tasks collected,
then per layer how many answers reached it (collected, host built, kernel built, tiling ran, ran
cleanly, matched), then the ranked blockers: the first error line of every answer that did not pass,
grouped, and the passing answers the speed floors flag as suspect (``speed_audit``). ``--min-pass N``
exits non-zero when fewer than N answers pass (a floor for CI); ``--seeds N`` checks N input seeds
per CSV row instead of the default 3 and ``--rows N`` only the first N CSV rows of every task (CI uses
both to stay within its time budget). The input data derive from one data seed per run, drawn fresh
and printed unless ``--data-seed`` gives it.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

LAYERS = ("collected", "host_built", "kernel_built", "tiling_ran", "ran_cleanly", "matched")
_LOCATION = re.compile(r"^(?:\[[a-z_]+\]\s*)?(?:[\w./-]+:\d+(?::\d+)?:\s*)?(?:fatal\s+)?")


def evaluate_task(folder: str, seeds: int | None = None, rows: int | None = None,
                  data_seed: int | None = None, shapes: str = "static", examples: int = 10) -> dict[str, Any]:
    """One task's expert answer (run in a worker process)."""
    from npukernelbench.cases import load_case
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.reference_runner import CaseReferenceError
    from npukernelbench.spec import SpecError
    from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

    start = time.monotonic()
    try:
        spec = load_case(Path(folder))
    except SpecError as exc:
        return {"task": folder, "collected": False, "message": str(exc)}
    record: dict[str, Any] = {"task": spec.case_id, "level": spec.level, "collected": True,
                              "answer": spec.solution is not None}
    if spec.solution is None:
        return record
    if rows is not None:
        spec = dataclasses.replace(spec, cases=spec.cases[:rows])
    try:
        result = evaluate(spec, Completion(spec.case_id, 0, files=dict(spec.solution)), AscendCSimToolchain(),
                          EvalOptions(shapes=shapes, speed=False, seeds=seeds, data_seed=data_seed,
                                      shape_examples=examples))
        record.update(status=result.status.value, stage=result.stage.value if result.stage else "collected",
                      message=result.message, suspect=result.suspect, shapes_checked=result.shapes_checked,
                      suspect_reasons=result.details.get("suspect_reasons", []))
    except CaseReferenceError as exc:         # the task's own files (module.py, pybind.cpp) are at fault
        record.update(status="task_error", stage="collected", message=str(exc))
    except Exception as exc:               # noqa: BLE001 - our own bug: reported
        record.update(status="harness_error", stage="collected", message=f"{type(exc).__name__}: {exc}")
    record["seconds"] = round(time.monotonic() - start, 1)
    return record


def evaluate_all(folders: list[str], jobs: int, seeds: int | None, rows: int | None,
                 data_seed: int | None = None, shapes: str = "static", examples: int = 10) -> list[dict[str, Any]]:
    """Every task's record, printing one progress line per finished task to stderr. A worker process
    that dies (a crash in task code the worker imported) breaks its pool: the unfinished tasks run
    again in a fresh pool, and a task whose worker dies twice is recorded as a harness error."""
    records: list[dict[str, Any]] = []
    pending, deaths = list(folders), collections.Counter[str]()
    while pending:
        retry: list[str] = []
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(evaluate_task, folder, seeds, rows, data_seed, shapes, examples): folder
                       for folder in pending}
            for future in as_completed(futures):
                folder = futures[future]
                try:
                    record = future.result()
                except BrokenProcessPool:
                    deaths[folder] += 1
                    if deaths[folder] < 2:
                        retry.append(folder)
                        continue
                    record = {"task": folder, "collected": True, "answer": True, "status": "harness_error",
                              "stage": "collected", "message": "the worker process evaluating this task died"}
                records.append(record)
                took = f" ({record['seconds']:.0f} s)" if record.get("seconds") is not None else ""
                print(f"[{len(records)}/{len(folders)}] {record['task']}: {record.get('status', 'no answer')}{took}",
                      file=sys.stderr, flush=True)
        pending = retry
    return records


def blocker(message: str) -> str:
    """The first error line of a failure, without file locations and case details, for grouping."""
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    head = next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "(no message)")
    head = _LOCATION.sub("", head)
    head = re.split(r" on case | \(input seed ", head)[0]
    return head[:140]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tasks", type=Path, help="a public NPUKernelBench task tree (or one task folder)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--level", type=int, action="append", help="only these levels (repeatable)")
    parser.add_argument("-k", dest="keyword", default="", help="only tasks whose id contains this text")
    parser.add_argument("--seeds", type=int, default=None, help="input seeds per CSV row (default: 3)")
    parser.add_argument("--rows", type=int, default=None, help="only the first N CSV rows of every task")
    parser.add_argument("--shapes", choices=("static", "dynamic", "both"), default="static",
                        help="the CSV rows (static, default), rows drawn from them (dynamic), or both")
    parser.add_argument("--shape-examples", type=int, default=10, help="drawn rows per task (dynamic, both)")
    parser.add_argument("--data-seed", type=int, default=None, help="seed of every task's input data (default: "
                        "drawn fresh, printed)")
    parser.add_argument("--min-pass", type=int, default=None, help="exit 1 when fewer answers pass")
    parser.add_argument("--json", type=Path, default=None, help="write every task's record to this file")
    args = parser.parse_args(argv)

    from npukernelbench.cases import case_root, find_case_dirs

    if not args.tasks.exists():
        print(f"public_npukb: {args.tasks} does not exist", file=sys.stderr)
        return 2
    folders = find_case_dirs(args.tasks)
    root = case_root(folders[0]) if folders else args.tasks
    selected = []
    for folder in folders:
        rel = folder.relative_to(root).as_posix() if folder.is_relative_to(root) else folder.name
        level = rel.split("/")[0].removeprefix("level")
        if args.level and (not level.isdigit() or int(level) not in args.level):
            continue
        if args.keyword and args.keyword.lower() not in rel.lower():
            continue
        selected.append(str(folder))
    if not selected:
        print(f"public_npukb: no task folders under {args.tasks}", file=sys.stderr)
        return 2
    from npukernelbench.data_seed import fresh_data_seed

    data_seed = args.data_seed if args.data_seed is not None else fresh_data_seed()
    print(f"input data seed {data_seed} (replay with --data-seed={data_seed})", flush=True)
    start = time.monotonic()
    records = evaluate_all(selected, max(1, args.jobs), args.seeds, args.rows, data_seed, args.shapes,
                           args.shape_examples)
    records.sort(key=lambda r: r["task"])
    report(records, time.monotonic() - start)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    passed = sum(1 for r in records if r.get("status") == "passed")
    if args.min_pass is not None and passed < args.min_pass:
        print(f"FLOOR MISSED: {passed} answers pass, the floor is {args.min_pass}")
        return 1
    return 0


def report(records: list[dict[str, Any]], seconds: float) -> None:
    collected = [r for r in records if r.get("collected")]
    answers = [r for r in collected if r.get("answer")]
    print(f"tasks: {len(records)}, collected: {len(collected)}, with an expert answer: {len(answers)} "
          f"({seconds:.0f} s)")
    for r in records:
        if not r.get("collected"):
            print(f"  not collected: {r['task']}: {r['message']}")
    print("\nanswers reaching each layer:")
    for i, layer in enumerate(LAYERS):
        n = sum(1 for r in answers if LAYERS.index(r.get("stage", "collected")) >= i)
        print(f"  {layer:<13} {n:>4} / {len(answers)}")
    passed = sum(1 for r in answers if r.get("status") == "passed")
    print(f"  passed        {passed:>4} / {len(answers)}")
    groups: dict[str, list[str]] = collections.defaultdict(list)
    for r in answers:
        if r.get("status") != "passed":
            groups[f"{r.get('status')}: {blocker(r.get('message', ''))}"].append(r["task"])
    if groups:
        print("\nblockers (answers that did not pass, grouped by their first error line):")
        for key, tasks in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            shown = ", ".join(t.split("/")[-1] for t in tasks[:6]) + (", ..." if len(tasks) > 6 else "")
            print(f"  {len(tasks):>3}  {key}\n       {shown}")
    suspects = [r for r in answers if r.get("status") == "passed" and r.get("suspect")]
    print(f"\npassing answers flagged suspect by the speed floors: {len(suspects)}")
    for r in suspects:
        print(f"  {r['task']}: {'; '.join(r.get('suspect_reasons', []))[:300]}")
    broken = sum(1 for r in answers if r.get("status") == "task_error")
    print(f"\nexpert answers: {passed} pass, {len(answers) - passed} do not"
          + (f" ({broken} of them on tasks whose own files are at fault: task_error; "
             f"{passed} of {len(answers) - broken} on the other tasks)" if broken else ""))


if __name__ == "__main__":
    sys.exit(main())
