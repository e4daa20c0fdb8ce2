"""Confinement overhead: build + run of ``add_custom`` at every confinement level this machine offers.

    PYTHONPATH=src python benchmarks/confinement_overhead.py [--builds 5] [--runs 10] [--json out.json]

For each level (``NPUKB_CONFINEMENT`` caps the level; the strongest the machine offers comes first) it
prints the level's full name as the run header shows it, then the median wall time of

- a cold build of ``add_custom`` (new sources each time: host compile, describe, kernel compile, link;
  the per-machine runtime objects and precompiled headers are built beforehand and not counted), and
- a run of that build on 4096 float16 elements (the launch as the evaluation makes it: request
  written, simulator started, outputs read back).

The figures compare levels and code versions on one machine at one time: the machine's load moves
them, so run it twice (before and after a change) back to back and compare medians. CPU seconds of
the child processes (user + system, those the harness reaps) are printed too: they move less with
the load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from npukernelbench import confinement
from npukernelbench.spec import load_spec
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
from npukernelbench.toolchains.base import KernelProject, Launch, ParamSlot, TensorArg

CASE = Path(__file__).resolve().parents[1] / "benchmark_cases" / "level1" / "math" / "add_custom"
ELEMENTS = 4096


def _project(spec, salt: str) -> KernelProject:
    files = dict(spec.solution)
    hosts = [k for k in files if k.startswith("op_host/") and k.endswith(".cpp")]
    for key in (f"op_kernel/{spec.kernel}.cpp", *hosts):      # a comment in both TUs: a distinct, cold build
        files[key] = files[key] + f"\n// {salt}\n"
    params = tuple(ParamSlot(d.name, role, "REQUIRED", "float16")
                   for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
    return KernelProject(op=spec.op, kernel=spec.kernel, files=files, params=params)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _launch() -> tuple[Launch, np.ndarray]:
    rng = np.random.default_rng(0)
    x = rng.uniform(-10, 10, ELEMENTS).astype(np.float16)
    y = rng.uniform(-10, 10, ELEMENTS).astype(np.float16)
    launch = Launch(inputs=(TensorArg("x", "float16", x), TensorArg("y", "float16", y)),
                    outputs=(TensorArg("z", "float16", shape=(ELEMENTS,)),), attrs={}, timeout_s=30.0)
    return launch, x + y


def measure(level: str, sim: AscendCSimToolchain, builds: int, runs: int) -> dict:
    os.environ[confinement.ENV_CAP] = level
    name = confinement.confinement_level()
    spec = load_spec(CASE)
    warm = sim.build(_project(spec, f"warm {level} {time.time()}"))     # per-machine artefacts, not counted
    assert warm.ok, warm.diagnostics
    build_wall, build_cpu = [], []
    build = warm
    for i in range(builds):
        cpu, wall = _children_cpu(), time.monotonic()
        build = sim.build(_project(spec, f"cold {level} {i} {time.time()}"))
        build_wall.append(time.monotonic() - wall)
        build_cpu.append(_children_cpu() - cpu)
        assert build.ok and not build.cached, build.diagnostics
    launch, expected = _launch()
    run_wall, run_cpu = [], []
    for _ in range(runs):
        cpu, wall = _children_cpu(), time.monotonic()
        result = sim.run(build, launch)
        run_wall.append(time.monotonic() - wall)
        run_cpu.append(_children_cpu() - cpu)
        assert result.ok, result.message
        assert np.array_equal(result.outputs["z"], expected)
    return {"cap": level, "level": name, "build_s": statistics.median(build_wall),
            "build_cpu_s": statistics.median(build_cpu), "run_s": statistics.median(run_wall),
            "run_cpu_s": statistics.median(run_cpu), "builds": builds, "runs": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=5, help="cold builds per level (median)")
    parser.add_argument("--runs", type=int, default=10, help="runs per level (median)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    offered: dict[str, str] = {}            # full level name -> the cap that gives it
    for level in confinement.LEVELS:
        os.environ[confinement.ENV_CAP] = level
        offered.setdefault(confinement.confinement_level(), level)
    rows = []
    with tempfile.TemporaryDirectory(prefix="npukb-overhead-") as tmp:
        sim = AscendCSimToolchain(cache_dir=tmp)
        for level in offered.values():
            row = measure(level, sim, args.builds, args.runs)
            rows.append(row)
            print(f"{row['level']:<36} cold build {row['build_s']:6.2f} s wall ({row['build_cpu_s']:5.2f} s CPU)   "
                  f"run {row['run_s'] * 1e3:7.1f} ms wall ({row['run_cpu_s'] * 1e3:6.1f} ms CPU)   "
                  f"build + run {row['build_s'] + row['run_s']:6.2f} s", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
