"""Run by test_infrastructure_failures.py inside a private mount namespace whose cache directory is
a small tmpfs: evaluate add_custom once (warm), fill the disk, then a build and a run each fail for
lack of space. Prints one JSON line.

Usage: python full_disk_worker.py CACHE_DIR CASE_DIR
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from npukernelbench.cases import load_case
from npukernelbench.evaluate import EvalOptions, evaluate
from npukernelbench.generators.base import Completion
from npukernelbench.infrastructure import InfrastructureError, free_bytes
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain

KERNEL = "op_kernel/add_custom.cpp"
LEAVE_FREE = 96 << 10


def fill(folder: Path) -> None:
    """Fill the file system of ``folder``, then give back ``LEAVE_FREE`` bytes: enough for sources and
    the request header, not for an object file or the input tensors."""
    ballast = folder / "ballast"
    block = b"\0" * (1 << 20)
    with open(ballast, "wb") as fh:
        try:
            while True:
                fh.write(block)
                fh.flush()
        except OSError:
            pass
    for size in (1 << 20, 64 << 10, 4 << 10):
        try:
            with open(ballast, "ab") as fh:
                while True:
                    fh.write(b"\0" * size)
                    fh.flush()
        except OSError:
            pass
    os.truncate(ballast, max(0, ballast.stat().st_size - LEAVE_FREE))


def attempt(spec, files, toolchain) -> dict:
    cache = toolchain.cache.root
    before = len(list((cache / "builds").glob("*/*/build.json")))
    try:
        result = evaluate(spec, Completion(spec.case_id, 0, files=files), toolchain,
                          EvalOptions(shapes="static", speed=False))
        outcome = {"error": None, "status": result.status.value, "message": result.message}
    except InfrastructureError as exc:
        outcome = {"error": "InfrastructureError", "cause": exc.cause}
    outcome["new_builds"] = len(list((cache / "builds").glob("*/*/build.json"))) - before
    return outcome


def main(cache_dir: str, case_dir: str) -> int:
    spec = load_case(Path(case_dir))
    toolchain = AscendCSimToolchain(cache_dir=cache_dir)
    solution = dict(spec.solution)
    warm = evaluate(spec, Completion(spec.case_id, 0, files=solution), toolchain,
                    EvalOptions(shapes="static", speed=False))
    fill(Path(cache_dir))
    free = free_bytes(Path(cache_dir))
    new = {k: (f"// new build\n{v}" if k == KERNEL else v) for k, v in solution.items()}
    report = {"warm": warm.status.value, "free_bytes": free,
              "build": attempt(spec, new, toolchain),           # a fresh build: no room for its objects
              "run": attempt(spec, solution, toolchain)}        # cached build: no room for the inputs
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
