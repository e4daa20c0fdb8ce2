"""Fingerprints of every kernel run an evaluation makes: for refactorings that must not change what
the simulator computes or estimates.

    PYTHONPATH=src python benchmarks/output_fingerprints.py PATH... [--rows N] [--seeds N] [--jobs N]
                                                           [-k SUBSTR] --json FILE

Every case under PATH (either layout) that ships an expert solution is evaluated with it (static
shapes, no determinism re-run, no speed baseline), through a toolchain wrapper that records, per
kernel run in order: the sha256 of every output's bytes, the estimated time and the cost details.
Two such files from two versions of the code compare with ``--compare OLD NEW``; byte-identical
outputs and estimates give no differences. Input data must be the same in both: pass
``--data-seed`` where the code has that option (it is ignored by versions without it), or
``--row-seeds`` to give a version with data seeds the input seeds of the versions before them
(``case.seed * 1000 + s``: the case's number decided the data). ``--compare --estimates-only``
compares statuses and estimates, not output bytes (for versions whose input data differ).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import inspect
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any


class Recording:
    """Delegates to a toolchain and records every run (``describe`` and new protocol members pass through)."""

    def __init__(self, inner: Any):
        self._inner = inner
        self.runs: list[dict[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def describe(self, project: Any) -> Any:
        return self._inner.describe(project)

    def build(self, project: Any) -> Any:
        return self._inner.build(project)

    def run(self, build: Any, launch: Any) -> Any:
        import numpy as np

        result = self._inner.run(build, launch)
        digest = {}
        for name, value in sorted(result.outputs.items()):
            arrays = value if isinstance(value, list) else [value]
            h = hashlib.sha256()
            for a in arrays:
                h.update(np.ascontiguousarray(a).tobytes())
            digest[name] = h.hexdigest()[:16]
        self.runs.append({"ok": result.ok, "outputs": digest, "time_us": result.time_us,
                          "cost": result.details.get("cost"), "message": result.message[:200]})
        return result


def _use_row_seeds() -> None:
    """Input seeds as the versions before data seeds derived them (a no-op in those versions)."""
    try:
        from npukernelbench.checker import Checker
    except ImportError:
        return
    Checker.input_seed = lambda self, case, index: case.seed * 1000 + index     # type: ignore[method-assign]


def fingerprint(folder: str, rows: int | None, seeds: int, data_seed: int, row_seeds: bool = False) -> dict[str, Any]:
    import random

    import numpy as np

    if row_seeds:
        _use_row_seeds()
    from npukernelbench.cases import load_case
    from npukernelbench.evaluate import EvalOptions, evaluate
    from npukernelbench.generators.base import Completion
    from npukernelbench.toolchains import get_toolchain

    random.seed(0)                           # task code that draws from numpy's or Python's global generator
    np.random.seed(0)
    spec = load_case(Path(folder))
    record: dict[str, Any] = {"task": spec.case_id}
    if spec.solution is None:
        return record
    if rows is not None:
        spec = dataclasses.replace(spec, cases=spec.cases[:rows])
    toolchain = Recording(get_toolchain("ascendc-sim"))
    kw: dict[str, Any] = {"shapes": "static", "speed": False, "seeds": seeds, "determinism": False}
    if "data_seed" in inspect.signature(EvalOptions).parameters:
        kw["data_seed"] = data_seed
    start = time.monotonic()
    try:
        result = evaluate(spec, Completion(spec.case_id, 0, files=dict(spec.solution)), toolchain, EvalOptions(**kw))
        record.update(status=result.status.value, message=result.message[:300], time_us=result.time_us)
    except Exception as exc:                 # noqa: BLE001 - recorded, compared like any outcome
        record.update(status="error", message=f"{type(exc).__name__}: {exc}"[:300])
    record["runs"] = toolchain.runs
    record["seconds"] = round(time.monotonic() - start, 1)
    return record


def _estimates(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in run.items() if k != "outputs"} for run in runs]


def compare(old_path: Path, new_path: Path, estimates_only: bool = False) -> int:
    old = {r["task"]: r for r in json.loads(old_path.read_text())}
    new = {r["task"]: r for r in json.loads(new_path.read_text())}
    differences = 0
    for task in sorted(set(old) | set(new)):
        a, b = old.get(task), new.get(task)
        if a is None or b is None:
            print(f"{task}: only in {'new' if a is None else 'old'}")
            differences += 1
            continue
        if estimates_only:
            a, b = {**a, "runs": _estimates(a.get("runs", []))}, {**b, "runs": _estimates(b.get("runs", []))}
        fields = [k for k in ("status", "time_us", "runs") if a.get(k) != b.get(k)]
        if fields:
            differences += 1
            print(f"{task}: differs in {', '.join(fields)}: {a.get('status')} -> {b.get('status')}")
    runs = sum(len(r.get("runs", [])) for r in new.values())
    print(f"{len(new)} tasks, {runs} kernel runs compared, {differences} with differences")
    return 1 if differences else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="*", type=Path)
    p.add_argument("--rows", type=int, default=None, help="only the first N static cases of every task")
    p.add_argument("--seeds", type=int, default=1)
    p.add_argument("--data-seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("-k", dest="keyword", default="")
    p.add_argument("--json", type=Path, default=None)
    p.add_argument("--row-seeds", action="store_true", help="input seeds from the case's number, as before "
                   "data seeds (to compare with such a version byte for byte)")
    p.add_argument("--compare", nargs=2, type=Path, metavar=("OLD", "NEW"))
    p.add_argument("--estimates-only", action="store_true", help="--compare: statuses and estimates, not outputs")
    args = p.parse_args(argv)
    if args.compare:
        return compare(*args.compare, estimates_only=args.estimates_only)
    from npukernelbench.cases import find_case_dirs

    folders = [str(f) for path in args.paths for f in find_case_dirs(path) if args.keyword in str(f)]
    records = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(fingerprint, f, args.rows, args.seeds, args.data_seed, args.row_seeds) for f in folders]
        for n, future in enumerate(as_completed(futures), start=1):
            record = future.result()
            records.append(record)
            print(f"[{n}/{len(folders)}] {record['task']}: {record.get('status', 'no solution')}", file=sys.stderr,
                  flush=True)
    records.sort(key=lambda r: r["task"])
    if args.json:
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
