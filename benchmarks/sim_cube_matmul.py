"""ascendc-sim cube-path figures: a 1024 x 1024 x 1024 float16 matmul (the basic_matmul expert
solution: ND2NZ copies, LoadData, Mmad, Fixpipe on 24 simulated AI cube cores) against torch.matmul
on the same CPU.

    PYTHONPATH=src python benchmarks/sim_cube_matmul.py [--size 1024] [--runs 3]

Target (issue 12): the simulated run takes at most 20x the CPU time of torch.matmul on the same
float16 operands. torch's float32 matmul (a stricter yardstick: CPUs multiply float32 natively) is
printed as well.

The simulated run is a child process (the simulator under the toolchain's confinement), so its CPU
seconds come from a second pass with NPUKB_CONFINEMENT=rlimits (processes under bubblewrap are not
reaped by this process); wall times of both passes are printed. The build is not timed here
(benchmarks/sim_build_run.py covers builds).
"""

from __future__ import annotations

import argparse
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

CASE = Path(__file__).resolve().parents[1] / "benchmark_cases" / "level3" / "gmm" / "basic_matmul"
TARGET_RATIO = 20.0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _project(spec) -> KernelProject:
    params = tuple(ParamSlot(d.name, role, "REQUIRED", "float16")
                   for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
    return KernelProject(op=spec.op, kernel=spec.kernel, files=dict(spec.solution), params=params)


def _torch_times(a: np.ndarray, b: np.ndarray, runs: int) -> dict[str, tuple[float, float]]:
    """(median wall, median CPU) seconds of torch.matmul on float16 and on float32 operands."""
    import torch

    out = {}
    for name, dtype in (("float16", torch.float16), ("float32", torch.float32)):
        ta, tb = torch.from_numpy(a).to(dtype), torch.from_numpy(b).to(dtype)
        torch.matmul(ta, tb)                                    # warm-up (thread pool, kernels)
        walls, cpus = [], []
        for _ in range(runs):
            cpu, t = _self_cpu(), time.perf_counter()
            torch.matmul(ta, tb)
            walls.append(time.perf_counter() - t)
            cpus.append(_self_cpu() - cpu)
        out[name] = (statistics.median(walls), statistics.median(cpus))
    return out


def measure(label: str, size: int, runs: int, with_torch: bool) -> None:
    spec = load_spec(CASE)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (size, size)).astype(np.float16)
    b = rng.uniform(-1, 1, (size, size)).astype(np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    launch = Launch(inputs=(TensorArg("a", "float16", a), TensorArg("b", "float16", b)),
                    outputs=(TensorArg("c", "float16", shape=(size, size)),), attrs={})
    with tempfile.TemporaryDirectory() as tmp:
        sim = AscendCSimToolchain(cache_dir=os.environ.get("NPUKB_CACHE_DIR") or tmp)
        build = sim.build(_project(spec))
        assert build.ok, build.diagnostics
        walls, cpus = [], []
        for _ in range(runs):
            cpu, t = _children_cpu(), time.monotonic()
            result = sim.run(build, launch)
            walls.append(time.monotonic() - t)
            cpus.append(_children_cpu() - cpu)
            assert result.ok, result.message
            got = result.outputs["c"].astype(np.float32)
            assert np.allclose(got, want, rtol=4e-3, atol=4e-3), float(np.abs(got - want).max())
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"[{label}] simulated {size}x{size}x{size} float16 matmul (median of {runs}, incl. I/O): {wall:.2f} s wall"
          + (f", {cpu:.2f} s CPU" if cpu > 0 else "") + f"; estimated kernel time {result.time_us:.1f} us on "
          f"{result.details['block_dim']} AI cores")
    if not with_torch:
        return
    for name, (t_wall, t_cpu) in _torch_times(a, b, runs).items():
        line = f"[{label}] torch.matmul {name} on the CPU: {t_wall * 1e3:.1f} ms wall, {t_cpu * 1e3:.1f} ms CPU"
        if cpu > 0 and t_cpu > 0:
            ratio = cpu / t_cpu
            target = f"   (target <= {TARGET_RATIO:g}x)" if name == "float16" else ""
            line += f"; simulator / torch CPU time = {ratio:.1f}x{target}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--unconfined-pass", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.unconfined_pass:
        measure("rlimits", args.size, args.runs, with_torch=True)
        return
    measure(os.environ.get("NPUKB_CONFINEMENT") or "bubblewrap", args.size, args.runs, with_torch=False)
    sys.stdout.flush()
    subprocess.run([sys.executable, __file__, "--unconfined-pass", "--size", str(args.size), "--runs", str(args.runs)],
                   check=True, env={**os.environ, "NPUKB_CONFINEMENT": "rlimits"})


if __name__ == "__main__":
    main()
