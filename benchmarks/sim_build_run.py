"""ascendc-sim figures: cold and cached build of add_custom, run time of an elementwise kernel on
1M float16 elements, peak memory of the child processes.

    PYTHONPATH=src python benchmarks/sim_build_run.py

Targets (issue 3): cold build <= 3 s, cached build <= 50 ms, 1M-element run <= 1 s.
"""

from __future__ import annotations

import json
import resource
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from npukernelbench.spec import load_spec
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
from npukernelbench.toolchains.ascendc_sim.builder import launcher_object
from npukernelbench.toolchains.ascendc_sim.compiler import find_compiler
from npukernelbench.toolchains.base import KernelProject, Launch, ParamSlot, TensorArg

CASE = Path(__file__).resolve().parents[1] / "benchmark_cases" / "level1" / "math" / "add_custom"


def project(spec, dt: str, salt: str = "") -> KernelProject:
    files = dict(spec.solution)
    if salt:   # a comment makes a distinct, cold build
        key = f"op_kernel/{spec.kernel}.cpp"
        files[key] = files[key] + f"\n// {salt}\n"
    params = tuple(ParamSlot(d.name, role, "REQUIRED", dt)
                   for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
    return KernelProject(op=spec.op, kernel=spec.kernel, files=files, params=params)


def main() -> None:
    spec = load_spec(CASE)
    with tempfile.TemporaryDirectory() as tmp:
        sim = AscendCSimToolchain(cache_dir=tmp)
        compiler = find_compiler()
        assert not isinstance(compiler, str), compiler
        t = time.monotonic()
        launcher_object(compiler, sim.cache)
        print(f"launcher object (once per machine and simulator version): {time.monotonic() - t:.2f} s")
        colds, steps = [], []
        for i in range(3):
            build = sim.build(project(spec, "float16", salt=f"cold {i} {time.time()}"))
            assert build.ok, build.diagnostics
            colds.append(build.seconds)
            steps.append(json.loads((build.artifact.parent / "build.json").read_text())["step_seconds"])
        print(f"cold build of add_custom (median of 3): {statistics.median(colds):.2f} s   "
              f"(target <= 3 s; wall seconds per step of the last: {steps[-1]})")
        proj = project(spec, "float16", salt="bench")
        sim.build(proj)
        cached = []
        for _ in range(20):
            t = time.monotonic()
            build = sim.build(proj)
            cached.append(time.monotonic() - t)
            assert build.cached
        print(f"cached build (median of 20): {statistics.median(cached) * 1e3:.1f} ms   (target <= 50 ms)")
        n = 1 << 20
        rng = np.random.default_rng(0)
        x = rng.uniform(-10, 10, n).astype(np.float16)
        y = rng.uniform(-10, 10, n).astype(np.float16)
        launch = Launch(inputs=(TensorArg("x", "float16", x), TensorArg("y", "float16", y)),
                        outputs=(TensorArg("z", "float16", shape=(n,)),), attrs={})
        runs = []
        for _ in range(3):
            t = time.monotonic()
            result = sim.run(build, launch)
            runs.append(time.monotonic() - t)
            assert result.ok, result.message
            assert np.array_equal(result.outputs["z"], x + y)
        print(f"run of add_custom on 1M float16 elements (median of 3, wall incl. I/O): "
              f"{statistics.median(runs):.2f} s   (target <= 1 s); estimated kernel time {result.time_us:.1f} us "
              f"on {result.details['block_dim']} blocks")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"peak memory of the child processes (ru_maxrss): {peak / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
