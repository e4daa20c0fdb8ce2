"""How fast the CPU simulator gets through a launch's data: CPU seconds of the simulated run per GiB of
launch tensors, for expert element-wise kernels of our cases at growing sizes. The figure behind
``run_limit.SECONDS_PER_GIB`` (the time a run is given per GiB of tensors on top of its base limit).

    PYTHONPATH=src python benchmarks/run_limit_rate.py [--elements 4M,16M,64M] [--cases add_custom,spence]

CPU seconds are the launcher's own (``launcher_cpu_seconds``: the tiling function, the simulated cores
and the checks; not the harness's), so they do not depend on the machine's load the way wall time does.
The last line is one JSON object: per kernel and size the CPU seconds and seconds per GiB, the highest
rate measured, and ``SECONDS_PER_GIB`` with its headroom over that rate.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from npukernelbench.spec import load_spec
from npukernelbench.toolchains.ascendc_sim import AscendCSimToolchain
from npukernelbench.toolchains.ascendc_sim.run_limit import SECONDS_PER_GIB, data_bytes
from npukernelbench.toolchains.base import KernelProject, Launch, ParamSlot, TensorArg

CASES = Path(__file__).resolve().parents[1] / "benchmark_cases" / "level1" / "math"


def _count(text: str) -> int:
    text = text.strip().upper()
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    return int(text.rstrip("KMG")) * scale


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--elements", default="4M,16M,64M", help="element counts per tensor (K/M/G suffixes)")
    ap.add_argument("--cases", default="add_custom,spence", help="element-wise cases under benchmark_cases/level1/math")
    ap.add_argument("--dtype", default="float32")
    ap.add_argument("--timeout", type=float, default=3600.0, help="base limit of each run (s)")
    ns = ap.parse_args(argv)
    sizes = [_count(s) for s in ns.elements.split(",")]
    sim = AscendCSimToolchain()
    rng = np.random.default_rng(0)
    rows, started = [], time.monotonic()
    for name in ns.cases.split(","):
        folder = CASES / name
        if not (folder / "case.toml").is_file():
            print(f"run_limit_rate: no case {folder}", file=sys.stderr)
            return 2
        spec = load_spec(folder)
        params = tuple(ParamSlot(d.name, role, "REQUIRED", ns.dtype)
                       for role, decls in (("input", spec.inputs), ("output", spec.outputs)) for d in decls)
        build = sim.build(KernelProject(op=spec.op, kernel=spec.kernel, files=dict(spec.solution), params=params))
        if not build.ok:
            print(f"run_limit_rate: {name} does not build: {build.diagnostics[-500:]}", file=sys.stderr)
            return 1
        for n in sizes:
            ins = tuple(TensorArg(d.name, ns.dtype, rng.uniform(0.5, 2.0, n).astype(ns.dtype)) for d in spec.inputs)
            outs = tuple(TensorArg(d.name, ns.dtype, shape=(n,)) for d in spec.outputs)
            launch = Launch(inputs=ins, outputs=outs, attrs={}, timeout_s=ns.timeout)
            run = sim.run(build, launch)
            if not run.ok:
                print(f"run_limit_rate: {name} at {n} elements failed: {run.message}", file=sys.stderr)
                return 1
            cpu = float(run.details["launcher_cpu_seconds"])
            gib = data_bytes(launch) / 2**30
            rows.append({"case": name, "elements": n, "gib": round(gib, 3), "cpu_seconds": round(cpu, 1),
                         "seconds_per_gib": round(cpu / gib, 1)})
            print(f"{name:12s} {n:>11,d} elements  {gib:6.3f} GiB  {cpu:7.1f} CPU s  {cpu / gib:6.1f} s/GiB",
                  file=sys.stderr)
    top = max(r["seconds_per_gib"] for r in rows)
    print(json.dumps({"runs": rows, "max_seconds_per_gib": top, "SECONDS_PER_GIB": SECONDS_PER_GIB,
                      "headroom": round(SECONDS_PER_GIB / top, 2), "seconds": round(time.monotonic() - started)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
