"""ascendc-sim figures: cold and cached build of add_custom, run time of an elementwise kernel on
1M float16 elements, peak memory of the child processes.

    PYTHONPATH=src python benchmarks/sim_build_run.py

Targets (issue 3): cold build <= 3 s, cached build <= 50 ms, 1M-element run <= 1 s.

Wall times depend on the machine's load (other builds running at the same time); the CPU seconds of
the compiler and simulator processes (user + system) do not, so both are printed. Processes run
under bubblewrap are not reaped by this process (their CPU time and peak memory never reach
RUSAGE_CHILDREN), so CPU seconds and peak memory come from a second pass in a child process with
NPUKB_CONFINEMENT=rlimits (same builds and runs, without the bubblewrap wrapper).
"Cold" means new sources with the per-machine artefacts (runtime objects, precompiled headers) in
place; the first build on a machine also makes those and is printed separately.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from npukernelbench.spec import load_spec
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
from npukernelbench.toolchains.base import KernelProject, Launch, ParamSlot, TensorArg

CASE = Path(__file__).resolve().parents[1] / "benchmark_cases" / "level1" / "math" / "add_custom"


def project(spec, dt: str, salt: str = "") -> KernelProject:
    files = dict(spec.solution)
    if salt:   # a comment in both TUs makes a distinct, cold build
        hosts = [k for k in files if k.startswith("op_host/") and k.endswith(".cpp")]
        for key in (f"op_kernel/{spec.kernel}.cpp", *hosts):
            files[key] = files[key] + f"\n// {salt}\n"
    params = tuple(ParamSlot(d.name, role, "REQUIRED", dt)
                   for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
    return KernelProject(op=spec.op, kernel=spec.kernel, files=files, params=params)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed_build(sim: AscendCSimToolchain, proj: KernelProject) -> tuple[float, float, dict]:
    cpu, wall = _children_cpu(), time.monotonic()
    build = sim.build(proj)
    wall, cpu = time.monotonic() - wall, _children_cpu() - cpu
    assert build.ok, build.diagnostics
    steps = json.loads((build.artifact.parent / "build.json").read_text())["step_seconds"]
    return wall, cpu, steps


def _run_1m(sim: AscendCSimToolchain, build) -> tuple[float, float, object]:
    n = 1 << 20
    rng = np.random.default_rng(0)
    x = rng.uniform(-10, 10, n).astype(np.float16)
    y = rng.uniform(-10, 10, n).astype(np.float16)
    launch = Launch(inputs=(TensorArg("x", "float16", x), TensorArg("y", "float16", y)),
                    outputs=(TensorArg("z", "float16", shape=(n,)),), attrs={})
    runs, cpus = [], []
    for _ in range(3):
        cpu, t = _children_cpu(), time.monotonic()
        result = sim.run(build, launch)
        runs.append(time.monotonic() - t)
        cpus.append(_children_cpu() - cpu)
        assert result.ok, result.message
        assert np.array_equal(result.outputs["z"], x + y)
    return statistics.median(runs), statistics.median(cpus), result


def measure(label: str) -> None:
    spec = load_spec(CASE)
    with tempfile.TemporaryDirectory() as tmp:
        sim = AscendCSimToolchain(cache_dir=tmp)
        wall, cpu, _ = _timed_build(sim, project(spec, "float16", salt=f"first {time.time()}"))
        print(f"[{label}] first build on a fresh cache (runtime objects + precompiled headers + build): "
              f"{wall:.2f} s wall, {cpu:.2f} s CPU")
        colds = [_timed_build(sim, project(spec, "float16", salt=f"cold {i} {time.time()}")) for i in range(3)]
        compile_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"[{label}] cold build of add_custom (median of 3): {statistics.median(c[0] for c in colds):.2f} s wall, "
              f"{statistics.median(c[1] for c in colds):.2f} s CPU   (target <= 3 s)")
        print(f"[{label}]   wall seconds per step of the last: {colds[-1][2]}")
        proj = project(spec, "float16", salt="bench")
        sim.build(proj)
        cached = []
        for _ in range(20):
            t = time.monotonic()
            build = sim.build(proj)
            cached.append(time.monotonic() - t)
            assert build.cached
        print(f"[{label}] cached build (median of 20): {statistics.median(cached) * 1e3:.1f} ms   (target <= 50 ms)")
        run_wall, run_cpu, result = _run_1m(sim, build)
        print(f"[{label}] run of add_custom on 1M float16 elements (median of 3, incl. I/O): {run_wall:.2f} s wall, "
              f"{run_cpu:.2f} s CPU   (target <= 1 s); estimated kernel time {result.time_us:.1f} us on "
              f"{result.details['block_dim']} blocks")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"[{label}] peak memory of one child process (ru_maxrss): compilers {compile_peak / 1024:.0f} MiB, "
              f"compilers and simulated runs {peak / 1024:.0f} MiB")


def main() -> None:
    if "--unconfined-pass" in sys.argv:
        measure("rlimits")
        return
    measure("bubblewrap" if os.environ.get("NPUKB_CONFINEMENT", "") == "" else os.environ["NPUKB_CONFINEMENT"])
    sys.stdout.flush()
    subprocess.run([sys.executable, __file__, "--unconfined-pass"], check=True,
                   env={**os.environ, "NPUKB_CONFINEMENT": "rlimits"})


if __name__ == "__main__":
    main()
